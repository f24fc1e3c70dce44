import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, PASSWORD, type TestContext } from "./helpers/build";
import { TEST_REDIS_URL as REDIS_URL } from "./helpers/redis";
import { redisMissing, runsWith } from "./helpers/services";

// Two API processes behind a load balancer: one database, one Redis for rate-limit counters.
// Without Redis: skipped on a developer's machine, a failure in CI.
const suite = "two API instances sharing PostgreSQL/PGlite and Redis";
describe.runIf(runsWith(suite, await redisMissing()))(suite, () => {
  let a: TestContext;
  let b: TestContext;
  beforeAll(async () => {
    const env = { REDIS_URL, RATE_LIMIT_AUTH_MAX: "4", CHANGE_CHANNEL: `test_scale_out_${process.pid}` };
    a = await buildTestApp({ env });
    b = await buildTestApp({ env, reset: false });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  // a client address of its own, so counters left in Redis by other runs and other tests do not matter
  const ownAddress = () =>
    `127.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;

  it("counts sign-in attempts across instances", async () => {
    const remoteAddress = ownAddress();
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
    const { email } = await a.createUser({ status: "PENDING" }); // no sign-in yet
    await a.app.deps.services.users.update((await a.app.deps.services.users.findByEmail(email))?.id ?? "", {
      status: "ACTIVE",
    });
    const login = await a.request({
      method: "POST",
      url: "/api/v1/user/authenticate",
      remoteAddress: ownAddress(),
      payload: { username: email, password: PASSWORD },
    });
    const user = { token: login.json().data.accessToken as string };
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
