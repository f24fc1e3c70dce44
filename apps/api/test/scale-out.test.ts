import { createConnection } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "./helpers/build";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

async function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const available = await redisAnswers(REDIS_URL);
if (!available) console.warn(`!! scale-out tests skipped: no Redis at ${REDIS_URL}`);

// Two API processes behind a load balancer: one database, one Redis for rate-limit counters.
describe.skipIf(!available)("two API instances sharing PostgreSQL/PGlite and Redis", () => {
  let a: TestContext;
  let b: TestContext;
  beforeAll(async () => {
    const env = { REDIS_URL, RATE_LIMIT_AUTH_MAX: "4" };
    a = await buildTestApp({ env });
    b = await buildTestApp({ env, reset: false });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  it("counts sign-in attempts across instances", async () => {
    // a client address of its own, so earlier runs' counters in Redis do not matter
    const remoteAddress = `127.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
    const attempt = (t: TestContext) =>
      t.request({
        method: "POST",
        url: "/api/v1/user/authenticate",
        remoteAddress,
        payload: { username: "nobody@example.com", password: "wrong-password!" },
      });
    const statuses = [];
    for (const t of [a, b, a, b, a]) statuses.push((await attempt(t)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
  });

  it("a session started on one instance works on the other, and logout on one ends it on both", async () => {
    const user = await a.createUser();
    expect((await b.request({ method: "GET", url: "/api/v1/user/me", token: user.token })).statusCode).toBe(
      200,
    );
    expect(
      (await b.request({ method: "GET", url: "/api/v1/auth/logout", token: user.token })).statusCode,
    ).toBe(200);
    expect((await a.request({ method: "GET", url: "/api/v1/user/me", token: user.token })).statusCode).toBe(
      401,
    );
  });
});
