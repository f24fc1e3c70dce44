import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "./helpers/build";
import { courseInput } from "./helpers/learning";
import { redisAnswers, TEST_REDIS_URL } from "./helpers/redis";

// Two API instances on one database, each with its own memory: what one writes, the other's
// caches must drop, through the change bus (PostgreSQL LISTEN/NOTIFY, Redis pub/sub, or the
// in-process hub of a PGlite database). Polling, never a timed sleep.

const postgres = Boolean(process.env.DATABASE_URL);
const redis = await redisAnswers();
if (!postgres) console.warn("!! change bus over PostgreSQL LISTEN/NOTIFY skipped: DATABASE_URL is not set");
if (!redis) console.warn(`!! change bus over Redis pub/sub skipped: no Redis at ${TEST_REDIS_URL}`);

const channel = (name: string) => `test_${name}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
const buses = [
  { name: "PGlite, in-process hub", run: !postgres, env: {} as Record<string, string>, kind: "memory" },
  {
    name: "PostgreSQL LISTEN/NOTIFY",
    run: postgres,
    env: { CHANGE_CHANNEL: channel("pg") },
    kind: "postgres",
  },
  {
    name: "Redis pub/sub",
    run: redis,
    env: { REDIS_URL: TEST_REDIS_URL, CHANGE_CHANNEL: channel("redis") },
    kind: "redis",
  },
];

for (const bus of buses) {
  describe.skipIf(!bus.run)(`two API instances, change bus: ${bus.name}`, () => {
    let a: TestContext;
    let b: TestContext;
    let admin: string;
    beforeAll(async () => {
      a = await buildTestApp({ env: bus.env });
      b = await buildTestApp({ env: bus.env, reset: false });
      admin = await a.adminToken();
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it(`uses the ${bus.kind} transport`, () => {
      expect(a.app.deps.changes.kind).toBe(bus.kind);
      expect(b.app.deps.changes.kind).toBe(bus.kind);
    });

    it("a course edited through one instance shows on the other's public reads", async () => {
      const titles = async (t: TestContext, url: string) =>
        ((await t.request({ method: "GET", url })).json().data.courses as { title_en: string }[]).map(
          (c) => c.title_en,
        );
      const list = "/api/v1/courses/active?page=1&pageSize=6";
      expect(await titles(b, list)).not.toContain("Two instances"); // b keeps it in memory now
      const created = await a.request({
        method: "POST",
        url: "/api/v1/courses",
        token: admin,
        payload: courseInput({ title_en: "Two instances" }),
      });
      expect(created.statusCode).toBe(201);
      await expect.poll(() => titles(b, list)).toContain("Two instances");
      const id = created.json().data.course.id as string;
      const page = () => b.request({ method: "GET", url: `/api/v1/courses/single/${id}` });
      expect((await page()).statusCode).toBe(200);
      await a.request({
        method: "PUT",
        url: `/api/v1/courses/${id}`,
        token: admin,
        payload: courseInput({ title_en: "Two instances", active: false }),
      });
      await expect.poll(async () => (await page()).statusCode).toBe(404);
    });

    it("plans and settings edited through one instance show on the other", async () => {
      const names = async () =>
        (
          (await b.request({ method: "GET", url: "/api/v1/plans/active" })).json().data.plans as {
            name: string;
          }[]
        ).map((p) => p.name);
      expect(await names()).not.toContain("Two instances plan");
      const plan = await a.request({
        method: "POST",
        url: "/api/v1/plans",
        token: admin,
        payload: {
          name: "Two instances plan",
          name_fr: "Deux",
          amount: 700,
          currency: "EUR",
          interval: "month",
        },
      });
      expect(plan.statusCode).toBe(201);
      await expect.poll(names).toContain("Two instances plan");

      const contact = async () =>
        (await b.request({ method: "GET", url: "/api/v1/settings" })).json().data.setting.contact_email;
      const csp = async () =>
        String((await b.request({ method: "GET", url: "/api/health" })).headers["content-security-policy"]);
      expect(await contact()).not.toBe("two@parlons.test");
      await a.request({
        method: "POST",
        url: "/api/v1/settings",
        token: admin,
        payload: {
          contact_email: "two@parlons.test",
          audio_source: { type: "cdn", base_url: "https://cdn.two.test" },
        },
      });
      await expect.poll(contact).toBe("two@parlons.test");
      await expect.poll(csp).toContain("media-src 'self' blob: https://cdn.two.test");
      await a.request({
        method: "POST",
        url: "/api/v1/settings",
        token: admin,
        payload: { audio_source: { type: "server" } },
      });
      await expect.poll(csp).not.toContain("cdn.two.test");
    });
  });
}
