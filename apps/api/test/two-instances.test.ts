import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, PASSWORD, type TestContext } from "./helpers/build";
import { courseInput, courseWithLessons } from "./helpers/learning";
import { TEST_REDIS_URL } from "./helpers/redis";
import { redisMissing, runsWith } from "./helpers/services";

// Two API instances on one database, each with its own memory: what one writes, the other's
// caches must drop, through the change bus (PostgreSQL LISTEN/NOTIFY, Redis pub/sub, or the
// in-process hub of a PGlite database). Polling, never a timed sleep.

const postgres = Boolean(process.env.DATABASE_URL);
// the PostgreSQL transport runs in the PostgreSQL run (CI has both runs); Redis in both, and a
// missing Redis fails CI (runsWith)
const redis = runsWith("two API instances, change bus: Redis pub/sub", await redisMissing());
if (!postgres) console.warn("!! change bus over PostgreSQL LISTEN/NOTIFY skipped: DATABASE_URL is not set");

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

    // revocation: at once here, within a second there (polled; nothing sleeps)
    const within = { timeout: 1000, interval: 20 };
    const me = (t: TestContext, token: string) =>
      t.request({ method: "GET", url: "/api/v1/user/me", token }).then((r) => r.statusCode);

    it("a token revoked through one instance is refused by the other within a second: logout", async () => {
      const user = await a.createUser();
      expect(await me(b, user.token)).toBe(200);
      expect(await me(b, user.token)).toBe(200); // now from b's memory
      expect(
        (await a.request({ method: "GET", url: "/api/v1/auth/logout", token: user.token })).statusCode,
      ).toBe(200);
      await expect.poll(() => me(b, user.token), within).toBe(401);
    });

    it("a lesson list answered from memory before routing on the other instance stops at logout within a second", async () => {
      const fx = await courseWithLessons(a, admin);
      const user = await a.createUser();
      await b.app.listen({ host: "127.0.0.1", port: 0 });
      const address = b.app.server.address() as import("node:net").AddressInfo;
      const list = () =>
        fetch(`http://127.0.0.1:${address.port}/api/v1/courses/${fx.course.id}/lessons`, {
          headers: { authorization: `Bearer ${user.token}` },
        }).then((r) => r.status);
      expect(await list()).toBe(200);
      const before = b.app.fastPath.stats.byRead.lessons ?? 0;
      expect(await list()).toBe(200);
      expect(b.app.fastPath.stats.byRead.lessons).toBe(before + 1); // from b's memory, before routing
      expect(
        (await a.request({ method: "GET", url: "/api/v1/auth/logout", token: user.token })).statusCode,
      ).toBe(200);
      await expect.poll(list, within).toBe(401);
    });

    it("a password change through one instance ends the other sessions on the other instance", async () => {
      const user = await a.createUser();
      const other = await b.login(user.email, PASSWORD);
      expect(await me(b, other)).toBe(200);
      expect(await me(b, user.token)).toBe(200);
      const changed = await a.request({
        method: "POST",
        url: "/api/v1/auth/change-password",
        token: user.token,
        payload: { currentPassword: PASSWORD, newPassword: "Another-pass2!" },
      });
      expect(changed.statusCode).toBe(200);
      await expect.poll(() => me(b, other), within).toBe(401);
      expect(await me(b, user.token)).toBe(200); // the session that changed it goes on
    });

    it("a role change or a disabled account through one instance applies on the other within a second", async () => {
      const user = await a.createUser();
      const staffList = () =>
        b.request({ method: "GET", url: "/api/v1/courses", token: user.token }).then((r) => r.statusCode);
      expect(await staffList()).toBe(403);
      const update = (payload: object) =>
        a.request({ method: "POST", url: `/api/v1/users/update/${user.id}`, token: admin, payload });
      expect((await update({ role: "ADMIN" })).statusCode).toBe(200);
      await expect.poll(staffList, within).toBe(200);
      expect((await update({ role: "CUSTOMER" })).statusCode).toBe(200);
      await expect.poll(staffList, within).toBe(403);
      expect((await update({ status: "DISABLED" })).statusCode).toBe(200);
      await expect.poll(() => me(b, user.token), within).toBe(401);
    });

    it("a subscription started through one instance opens the paid lessons on the other", async () => {
      const fx = await courseWithLessons(a, admin);
      const plan = await a.request({
        method: "POST",
        url: "/api/v1/plans",
        token: admin,
        payload: { name: "Premium", name_fr: "Premium", amount: 999, currency: "EUR", interval: "month" },
      });
      const user = await a.createUser();
      const paidLocked = async () => {
        const res = await b.request({
          method: "GET",
          url: `/api/v1/courses/${fx.course.id}/lessons`,
          token: user.token,
        });
        return (res.json().data.lessons as { id: string; locked: boolean }[]).find((l) => l.id === fx.paid.id)
          ?.locked;
      };
      expect(await paidLocked()).toBe(true);
      const started = await a.request({
        method: "POST",
        url: "/api/v1/customer-plan",
        token: user.token,
        payload: { plan_id: plan.json().data.plan.id },
      });
      expect(started.statusCode).toBe(201);
      const id = started.json().data.customerPlan.id as string;
      expect(
        (
          await a.request({
            method: "POST",
            url: `/api/v1/customer-plan/demo/${id}/approve`,
            token: user.token,
          })
        ).statusCode,
      ).toBe(200);
      await expect.poll(paidLocked, within).toBe(false);
    });
  });
}
