import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePaypal } from "../../../test/fakes/paypal-server";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { fakePaypalEnv } from "../../../test/helpers/paypal";
import { customerPlans, plans } from "../../db/schema";

let t: TestContext;
let fake: FakePaypal;
let admin: string;
let learner: { id: string; token: string };
beforeAll(async () => {
  const paypal = await fakePaypalEnv();
  fake = paypal.fake;
  t = await buildTestApp({ env: paypal.env });
  admin = await t.adminToken();
  learner = await t.createUser();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

const premium = { name: "Premium", name_fr: "Premium FR", amount: 999, currency: "EUR", interval: "month" };
const createPlan = (payload: object, token = admin) =>
  t.request({ method: "POST", url: "/api/v1/plans", payload, token });
const planCount = async () => (await t.database.db.select().from(plans)).length;
const defaultPlanId = async () => {
  const [row] = await t.database.db.select().from(plans).where(eq(plans.isDefault, true));
  return row?.id ?? "";
};

describe("plans: authorization", () => {
  it("staff routes answer 401 without a token and 403 to a learner", async () => {
    const id = await defaultPlanId();
    const routes = [
      { method: "GET" as const, url: "/api/v1/plans" },
      { method: "POST" as const, url: "/api/v1/plans", payload: premium },
      { method: "PUT" as const, url: `/api/v1/plans/${id}`, payload: { name: "x" } },
      { method: "DELETE" as const, url: `/api/v1/plans/${id}` },
    ];
    for (const route of routes) {
      expect((await t.request(route)).statusCode, `${route.method} ${route.url}`).toBe(401);
      const res = await t.request({ ...route, token: learner.token });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().code).toBe("FORBIDDEN");
    }
  });
});

describe("plans: CRUD and rules", () => {
  it("creates a paid plan with its PayPal product and billing plan (price in PayPal's decimal string)", async () => {
    const res = await createPlan({
      ...premium,
      features_en: ["All lessons"],
      features_fr: ["Toutes les leçons"],
    });
    expect(res.statusCode).toBe(201);
    const plan = res.json().data.plan;
    expect(plan).toMatchObject({
      name: "Premium",
      name_fr: "Premium FR",
      amount: 999,
      currency: "EUR",
      interval: "month",
      premium: true,
      is_default: false,
      active: true,
      features_en: ["All lessons"],
    });
    expect(plan).not.toHaveProperty("paypal_plan_id");
    const [row] = await t.database.db.select().from(plans).where(eq(plans.id, plan.id));
    const paypalPlan = fake.plans.get(row?.paypalPlanId ?? "");
    expect(paypalPlan?.billing_cycles[0]?.pricing_scheme?.fixed_price).toEqual({
      value: "9.99",
      currency_code: "EUR",
    });
    expect(fake.products.has(row?.paypalProductId ?? "")).toBe(true);
  });

  it("lists all plans for staff, active ones in order for everyone, and hides inactive ones from the public", async () => {
    const hidden = (await createPlan({ ...premium, name: "Hidden", active: false, position: 5 })).json().data
      .plan;
    const all = await t.request({ method: "GET", url: "/api/v1/plans", token: admin });
    expect(all.json().data.plans.map((p: { name: string }) => p.name)).toContain("Hidden");
    const active = await t.request({ method: "GET", url: "/api/v1/plans/active" });
    expect(active.statusCode).toBe(200);
    const names = active.json().data.plans.map((p: { name: string }) => p.name);
    expect(names).not.toContain("Hidden");
    expect(names[0]).toBe("Discovery");
    expect((await t.request({ method: "GET", url: `/api/v1/plans/single/${hidden.id}` })).statusCode).toBe(
      404,
    );
    const single = await t.request({ method: "GET", url: `/api/v1/plans/single/${hidden.id}`, token: admin });
    expect(single.json().data.plan.name).toBe("Hidden");
  });

  it("refuses a paid one-off plan and bad amounts with 422", async () => {
    for (const payload of [
      { ...premium, interval: "once" },
      { ...premium, amount: 9.99 },
      { ...premium, amount: -1 },
      { ...premium, currency: "eur" },
    ]) {
      const res = await createPlan(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
    }
  });

  it("repricing creates a new PayPal plan on the same product; the old one stays for its subscribers", async () => {
    const plan = (await createPlan(premium)).json().data.plan;
    const [before] = await t.database.db.select().from(plans).where(eq(plans.id, plan.id));
    const renamed = await t.request({
      method: "PUT",
      url: `/api/v1/plans/${plan.id}`,
      token: admin,
      payload: { name: "Gold" },
    });
    expect(renamed.statusCode).toBe(200);
    const [afterRename] = await t.database.db.select().from(plans).where(eq(plans.id, plan.id));
    expect(afterRename?.paypalPlanId).toBe(before?.paypalPlanId);
    const repriced = await t.request({
      method: "PUT",
      url: `/api/v1/plans/${plan.id}`,
      token: admin,
      payload: { amount: 1299 },
    });
    expect(repriced.json().data.plan).toMatchObject({ name: "Gold", amount: 1299 });
    const [after] = await t.database.db.select().from(plans).where(eq(plans.id, plan.id));
    expect(after?.paypalPlanId).not.toBe(before?.paypalPlanId);
    expect(after?.paypalProductId).toBe(before?.paypalProductId);
    expect(fake.plans.get(before?.paypalPlanId ?? "")?.status).toBe("ACTIVE");
    expect(
      fake.plans.get(after?.paypalPlanId ?? "")?.billing_cycles[0]?.pricing_scheme?.fixed_price.value,
    ).toBe("12.99");
  });

  it("the default free plan cannot be deleted, made premium or deactivated (409)", async () => {
    const id = await defaultPlanId();
    const del = await t.request({ method: "DELETE", url: `/api/v1/plans/${id}`, token: admin });
    expect(del.statusCode).toBe(409);
    expect(del.json().code).toBe("CONFLICT");
    const paid = await t.request({
      method: "PUT",
      url: `/api/v1/plans/${id}`,
      token: admin,
      payload: { amount: 500 },
    });
    expect(paid.statusCode).toBe(409);
    const off = await t.request({
      method: "PUT",
      url: `/api/v1/plans/${id}`,
      token: admin,
      payload: { active: false },
    });
    expect(off.statusCode).toBe(409);
    const renamed = await t.request({
      method: "PUT",
      url: `/api/v1/plans/${id}`,
      token: admin,
      payload: { name: "Discovery" },
    });
    expect(renamed.statusCode).toBe(200);
  });

  it("deletes an unused plan; a plan with subscribers is deactivated instead", async () => {
    const unused = (await createPlan({ ...premium, name: "Unused" })).json().data.plan;
    const del = await t.request({ method: "DELETE", url: `/api/v1/plans/${unused.id}`, token: admin });
    expect(del.json().data).toMatchObject({ deleted: true });
    expect(
      (await t.request({ method: "GET", url: `/api/v1/plans/single/${unused.id}`, token: admin })).statusCode,
    ).toBe(404);

    const used = (await createPlan({ ...premium, name: "Used" })).json().data.plan;
    await t.database.db
      .insert(customerPlans)
      .values({ userId: learner.id, planId: used.id, status: "CANCELLED", provider: "paypal" });
    const res = await t.request({ method: "DELETE", url: `/api/v1/plans/${used.id}`, token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ deleted: false, plan: { id: used.id, active: false } });
  });

  it("PayPal down (500) or hanging (timeout): 502 PROVIDER_ERROR and no plan written", async () => {
    const before = await planCount();
    fake.failNext(1, { status: 500, path: "/v1/billing/plans" });
    const down = await createPlan({ ...premium, name: "Down" });
    expect(down.statusCode).toBe(502);
    expect(down.json()).toMatchObject({ statusCode: 502, code: "PROVIDER_ERROR" });
    fake.failNext(1, { delayMs: 1500, path: "/v1/catalogs/products" });
    const slow = await createPlan({ ...premium, name: "Slow" });
    expect(slow.statusCode).toBe(502);
    expect(await planCount()).toBe(before);

    const plan = (await createPlan(premium)).json().data.plan;
    fake.failNext(1, { status: 503, path: "/v1/billing/plans" });
    const reprice = await t.request({
      method: "PUT",
      url: `/api/v1/plans/${plan.id}`,
      token: admin,
      payload: { amount: 1999, name: "X" },
    });
    expect(reprice.statusCode).toBe(502);
    const single = await t.request({ method: "GET", url: `/api/v1/plans/single/${plan.id}`, token: admin });
    expect(single.json().data.plan).toMatchObject({ amount: 999, name: "Premium" });
  });
});
