import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { customerPlans, jobLeases } from "../../db/schema";
import { claimRun, startSubscriptionSync } from "../../jobs/subscription-sync";

let t: TestContext;
let planId: string;
beforeAll(async () => {
  t = await buildTestApp();
  const admin = await t.adminToken();
  const res = await t.request({
    method: "POST",
    url: "/api/v1/plans",
    token: admin,
    payload: { name: "Yearly", name_fr: "Annuel", amount: 9900, interval: "year" },
  });
  planId = res.json().data.plan.id;
});
afterAll(() => t.close());

const post = (url: string, token: string, payload?: object) =>
  t.request({ method: "POST", url: `/api/v1/customer-plan${url}`, token, ...(payload && { payload }) });
async function access(userId: string, now?: Date) {
  const principal = await t.app.deps.services.users.loadPrincipal(userId);
  if (!principal) throw new Error("no principal");
  return t.app.deps.services.entitlement.accessOf(principal, now);
}
const me = async (token: string) =>
  (await t.request({ method: "GET", url: "/api/v1/user/me", token })).json().data.data;

describe("demo provider (no PayPal credentials)", () => {
  it("is the default provider and offers only the demo checkout", async () => {
    expect(t.config.payments.provider).toBe("demo");
    const res = await t.request({ method: "GET", url: "/api/v1/billing/providers" });
    expect(res.json().data).toEqual({ provider: "demo", checkout: ["demo"], paypal_client_id: null });
    const learner = await t.createUser();
    expect((await post("", learner.token, { plan_id: planId, provider: "paypal" })).statusCode).toBe(422);
    expect((await post("", learner.token, { plan_id: planId, provider: "card" })).statusCode).toBe(422);
  });

  it("subscribe → our demo checkout → approve → ACTIVE, premium, one payment; approving twice is refused", async () => {
    const learner = await t.createUser();
    const res = await post("", learner.token, { plan_id: planId });
    expect(res.statusCode).toBe(201);
    const { customerPlan, approveUrl } = res.json().data;
    expect(approveUrl).toBe(`/billing/subscription-payment?demo=${customerPlan.id}`);
    expect(customerPlan).toMatchObject({ provider: "demo", status: "APPROVAL_PENDING" });
    expect(customerPlan.paypal_subscription_id).toMatch(/^DEMO-/);

    const stranger = await t.createUser();
    expect((await post(`/demo/${customerPlan.id}/approve`, stranger.token)).statusCode).toBe(404);

    const approved = await post(`/demo/${customerPlan.id}/approve`, learner.token);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().message).toBe("Demo payment: no money moves");
    const active = approved.json().data.customerPlan;
    expect(active.status).toBe("ACTIVE");
    const year = new Date(active.started_at);
    year.setUTCFullYear(year.getUTCFullYear() + 1);
    expect(active.next_billing_at).toBe(year.toISOString());
    expect(await access(learner.id)).toBe("all");
    expect((await me(learner.token)).plan_id).toBe(planId);
    const history = await t.request({
      method: "GET",
      url: "/api/v1/customer-plan/payments",
      token: learner.token,
    });
    expect(history.json().data.payments).toMatchObject([{ amount: 9900, provider: "demo" }]);
    expect((await post(`/demo/${customerPlan.id}/approve`, learner.token)).statusCode).toBe(409);
    expect((await post(`/demo/${customerPlan.id}/decline`, learner.token)).statusCode).toBe(409);
  });

  it("English checkout path, then decline → CANCELLED, still on the free plan", async () => {
    const learner = await t.createUser();
    const res = await post("", learner.token, { plan_id: planId, locale: "en" });
    const { customerPlan, approveUrl } = res.json().data;
    expect(approveUrl).toBe(`/en/billing/subscription-payment?demo=${customerPlan.id}`);
    const declined = await post(`/demo/${customerPlan.id}/decline`, learner.token);
    expect(declined.json().data.customerPlan.status).toBe("CANCELLED");
    expect(declined.json().data.customerPlan.access_until).toBeNull();
    expect(await access(learner.id)).toBe("free");
    expect((await me(learner.token)).plan.is_default).toBe(true);
  });

  it("cancel → access until the end of the paid period, then the sync job puts the learner back on free", async () => {
    const learner = await t.createUser();
    const cp = (await post("", learner.token, { plan_id: planId })).json().data.customerPlan;
    const active = (await post(`/demo/${cp.id}/approve`, learner.token)).json().data.customerPlan;
    const cancelled = (await post(`/cancel/${cp.id}`, learner.token)).json().data.customerPlan;
    expect(cancelled).toMatchObject({
      status: "CANCELLED",
      access_until: active.next_billing_at,
      next_billing_at: null,
    });
    expect(await access(learner.id)).toBe("all");
    // the sync before the end changes nothing
    const sync = startSubscriptionSync({
      db: t.database.db,
      billing: t.app.deps.services.billing,
      intervalSeconds: 3600,
      log: t.app.log,
      schedule: false,
    });
    await t.database.db.delete(jobLeases);
    expect(await sync.runOnce()).toBe(true);
    expect((await me(learner.token)).plan_id).toBe(planId);
    // a year later
    const later = new Date(new Date(active.next_billing_at).getTime() + 3600_000);
    expect(await sync.runOnce(later)).toBe(true);
    expect(await access(learner.id, later)).toBe("free");
    expect((await me(learner.token)).plan.is_default).toBe(true);
    const [row] = await t.database.db.select().from(customerPlans).where(eq(customerPlans.id, cp.id));
    expect(row?.status).toBe("CANCELLED");
  });

  it("a new subscription replaces the learner's previous one (upgrade)", async () => {
    const admin = await t.adminToken();
    const monthly = (
      await t.request({
        method: "POST",
        url: "/api/v1/plans",
        token: admin,
        payload: { name: "Monthly", name_fr: "Mensuel", amount: 990, interval: "month" },
      })
    ).json().data.plan;
    const learner = await t.createUser();
    const first = (await post("", learner.token, { plan_id: monthly.id })).json().data.customerPlan;
    await post(`/demo/${first.id}/approve`, learner.token);
    const second = (await post("", learner.token, { plan_id: planId })).json().data.customerPlan;
    await post(`/demo/${second.id}/approve`, learner.token);
    const rows = await t.database.db.select().from(customerPlans).where(eq(customerPlans.userId, learner.id));
    expect(rows.find((r) => r.id === first.id)).toMatchObject({ status: "CANCELLED", accessUntil: null });
    expect(rows.find((r) => r.id === second.id)?.status).toBe("ACTIVE");
    expect((await me(learner.token)).plan_id).toBe(planId);
    expect(await access(learner.id)).toBe("all");
  });
});

describe("subscription sync job", () => {
  it("runs once per interval however many processes try (lease row)", async () => {
    await t.database.db.delete(jobLeases);
    const now = new Date();
    const results = await Promise.all([
      claimRun(t.database.db, 3600, "a", now),
      claimRun(t.database.db, 3600, "b", now),
      claimRun(t.database.db, 3600, "c", now),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await claimRun(t.database.db, 3600, "a", new Date(now.getTime() + 60_000))).toBe(false);
    expect(await claimRun(t.database.db, 3600, "b", new Date(now.getTime() + 3600_000))).toBe(true);
  });
});
