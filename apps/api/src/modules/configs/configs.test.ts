import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { auditLog } from "../../db/schema";

let t: TestContext;
let admin: string;
let learner: { id: string; token: string };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  learner = await t.createUser();
});
afterAll(() => t.close());

const base = "/api/v1/configs";
const create = (payload: unknown, token: string | undefined = admin) =>
  t.request({ method: "POST", url: base, token, payload: payload as object });

describe("configs CRUD", () => {
  it("creates, reads, lists, updates and deletes any JSON value, audited", async () => {
    const values: [string, unknown][] = [
      ["home.banner", { fr: "Bienvenue", en: "Welcome", show: true }],
      ["events.max-per-booking", 5],
      ["feature_flags", ["player-v2"]],
      ["maintenance", false],
      ["greeting", "bonjour"],
      ["nothing", null],
    ];
    for (const [key, value] of values) {
      const res = await create({ key, value, description: `The ${key}` });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.config).toMatchObject({ key, value, description: `The ${key}` });
      const read = await t.request({ method: "GET", url: `${base}/${key}`, token: admin });
      expect(read.statusCode).toBe(200);
      expect(read.json().data.config.value).toEqual(value);
    }
    const list = await t.request({ method: "GET", url: `${base}?search=banner`, token: admin });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.configs.map((c: { key: string }) => c.key)).toEqual(["home.banner"]);
    const all = await t.request({ method: "GET", url: base, token: admin });
    expect(all.json().data.pagination.total).toBe(values.length);

    const updated = await t.request({
      method: "PUT",
      url: `${base}/maintenance`,
      token: admin,
      payload: { value: true },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data.config).toMatchObject({ value: true, description: "The maintenance" });
    const described = await t.request({
      method: "PUT",
      url: `${base}/maintenance`,
      token: admin,
      payload: { description: "Site closed" },
    });
    expect(described.json().data.config).toMatchObject({ value: true, description: "Site closed" });
    expect(await t.app.deps.services.configs.value("maintenance")).toBe(true);

    const removed = await t.request({ method: "DELETE", url: `${base}/maintenance`, token: admin });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data).toEqual({ key: "maintenance" });
    expect((await t.request({ method: "GET", url: `${base}/maintenance`, token: admin })).statusCode).toBe(
      404,
    );

    const trail = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "config"), eq(auditLog.targetId, "maintenance")))
      .orderBy(asc(auditLog.createdAt));
    expect(trail.map((e) => e.action).sort()).toEqual([
      "configs.create",
      "configs.delete",
      "configs.update",
      "configs.update",
    ]);
    const first = trail.find((e) => e.action === "configs.update");
    expect(first).toMatchObject({ before: { value: false }, after: { value: true } });
  });

  it("refuses a key that exists (409) and unknown keys (404)", async () => {
    expect((await create({ key: "dup", value: 1 })).statusCode).toBe(201);
    const again = await create({ key: "dup", value: 2 });
    expect(again.statusCode).toBe(409);
    const missing = "no-such-key";
    expect((await t.request({ method: "GET", url: `${base}/${missing}`, token: admin })).statusCode).toBe(
      404,
    );
    expect(
      (await t.request({ method: "PUT", url: `${base}/${missing}`, token: admin, payload: { value: 1 } }))
        .statusCode,
    ).toBe(404);
    expect((await t.request({ method: "DELETE", url: `${base}/${missing}`, token: admin })).statusCode).toBe(
      404,
    );
  });
});

describe("configs validation", () => {
  it("checks keys, values and sizes (422; 413 for bodies far too large)", async () => {
    for (const key of ["", "Upper", "-start", "a b", "x".repeat(65), "é"]) {
      const res = await create({ key, value: 1 });
      expect(res.statusCode, key).toBe(422);
      expect(res.json().errors).toHaveProperty("key");
    }
    expect((await create({ key: "x".repeat(64), value: 1 })).statusCode).toBe(201);
    const noValue = await create({ key: "no-value" });
    expect(noValue.statusCode).toBe(422);
    expect(noValue.json().errors).toHaveProperty("value");
    const big = await create({ key: "big", value: "é".repeat(9000) });
    expect(big.statusCode).toBe(422);
    expect(big.json().errors).toHaveProperty("value");
    expect((await create({ key: "fits", value: "a".repeat(16 * 1024 - 2) })).statusCode).toBe(201);
    const huge = await create({ key: "huge", value: "a".repeat(100 * 1024) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().code).toBe("PAYLOAD_TOO_LARGE");
    const emptyUpdate = await t.request({ method: "PUT", url: `${base}/fits`, token: admin, payload: {} });
    expect(emptyUpdate.statusCode).toBe(422);
    const badParam = await t.request({ method: "GET", url: `${base}/Not%20A%20Key`, token: admin });
    expect(badParam.statusCode).toBe(400);
  });
});

describe("configs access", () => {
  it("requires authentication and configs.manage on every route", async () => {
    await create({ key: "secret", value: "x" });
    const routes = [
      { method: "GET", url: base },
      { method: "GET", url: `${base}/secret` },
      { method: "POST", url: base, payload: { key: "other", value: 1 } },
      { method: "PUT", url: `${base}/secret`, payload: { value: "y" } },
      { method: "DELETE", url: `${base}/secret` },
    ] as const;
    for (const route of routes) {
      expect((await t.request({ ...route })).statusCode, `${route.method} ${route.url}`).toBe(401);
      const res = await t.request({ ...route, token: learner.token });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
    }
    expect(
      (await t.request({ method: "GET", url: `${base}/secret`, token: admin })).json().data.config.value,
    ).toBe("x");
  });

  it("every route of /v1/configs declares configs.manage", () => {
    const rules = t.app.routeAccess.filter((r) => r.url.startsWith("/api/v1/configs"));
    expect(rules).toHaveLength(5);
    for (const r of rules) expect(r.access).toEqual({ kind: "permission", slug: "configs.manage" });
  });
});
