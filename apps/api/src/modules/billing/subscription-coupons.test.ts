import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingHelpers } from "../../../test/helpers/billing";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { type PaypalTestApp, paypalTestApp } from "../../../test/helpers/paypal";
import { couponRedemptions, coupons, customerPlans, paypalIntroPlans } from "../../db/schema";

// Coupons on subscriptions (issue 28, part 4): entered at the subscription checkout (demo and
// PayPal), for the plans they name, on the first payment or on every one; the receipt shows the
// discount; the use is taken once per subscription, and a last use goes to exactly one of 20.

describe("coupons on subscriptions, demo checkout", () => {
  let t: TestContext;
  let admin: string;
  let monthly: string;
  let yearly: string;
  const h = billingHelpers(() => ({ t, admin }));
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.adminToken();
    monthly = await h.plan({ name: "Monthly", name_fr: "Mensuel", amount: 1000, interval: "month" });
    yearly = await h.plan({ name: "Yearly", name_fr: "Annuel", amount: 9900, interval: "year" });
  });
  afterAll(() => t.close());

  it("charges the discounted first payment, shows it on the receipt, and takes one use", async () => {
    const made = await h.coupon({ percent_off: 25, plan_ids: [monthly], max_uses: 5 });
    expect(made.duration).toBe("once");
    const learner = await t.createUser();
    const started = await h.subscribe(learner, { plan_id: monthly, coupon: made.code.toLowerCase() });
    expect(started.statusCode, started.body).toBe(201);
    const { customerPlan } = started.json().data;
    expect(customerPlan.coupon).toEqual({
      code: made.code,
      duration: "once",
      list_amount: 1000,
      amount: 750,
    });
    expect(await h.uses(made.id)).toBe(1);
    const approved = await h.post(`/demo/${customerPlan.id}/approve`, learner.token);
    expect(approved.json().data.customerPlan.status).toBe("ACTIVE");
    // the return page, the sync job and a replay read the same payment: still one use
    await h.get(`/update-status/${customerPlan.id}`, learner.token);
    await h.get(`/update-status/${customerPlan.id}`, learner.token);
    const [payment] = await h.paymentsOf(learner);
    expect(payment?.amount).toBe(750);
    expect(await h.receipt(payment?.receipt?.id ?? "", learner.token)).toMatchObject({
      amount: 750,
      list_amount: 1000,
      coupon_code: made.code,
    });
    expect(await h.uses(made.id)).toBe(1);
    const redemptions = await t.database.db
      .select()
      .from(couponRedemptions)
      .where(eq(couponRedemptions.couponId, made.id));
    expect(redemptions).toMatchObject([
      { customerPlanId: customerPlan.id, purchaseId: null, amountOff: 250 },
    ]);
  });

  it("a checkout declined gives its coupon's use back", async () => {
    const made = await h.coupon({ max_uses: 1 });
    const learner = await t.createUser();
    const started = await h.subscribe(learner, { plan_id: monthly, coupon: made.code });
    expect(await h.uses(made.id)).toBe(1);
    const id = started.json().data.customerPlan.id;
    const declined = await h.post(`/demo/${id}/decline`, learner.token);
    expect(declined.json().data.customerPlan.status).toBe("CANCELLED");
    expect(await h.uses(made.id)).toBe(0);
    // the use is there for another learner
    const other = await t.createUser();
    expect((await h.subscribe(other, { plan_id: monthly, coupon: made.code })).statusCode).toBe(201);
    expect(await h.uses(made.id)).toBe(1);
  });

  it("refuses a coupon for another plan, ended or used up, with codes; nothing is started", async () => {
    const learner = await t.createUser();
    const refused = async (code: string) => {
      const res = await h.subscribe(learner, { plan_id: yearly, coupon: code });
      return [res.statusCode, res.json().code];
    };
    expect(await refused((await h.coupon({ plan_ids: [monthly] })).code)).toEqual([
      422,
      "COUPON_NOT_APPLICABLE",
    ]);
    expect(await refused((await h.coupon({ ends_at: "2020-01-01T00:00:00Z" })).code)).toEqual([
      422,
      "COUPON_EXPIRED",
    ]);
    expect(await refused("NOPE-NOPE")).toEqual([422, "COUPON_INVALID"]);
    const full = await h.coupon({ max_uses: 1 });
    await t.database.db.update(coupons).set({ uses: 1 }).where(eq(coupons.id, full.id));
    expect(await refused(full.code)).toEqual([409, "COUPON_USED_UP"]);
    expect(
      await t.database.db.select().from(customerPlans).where(eq(customerPlans.userId, learner.id)),
    ).toHaveLength(0);
  });

  it("a coupon's last use, redeemed by 20 learners subscribing at once: exactly one wins", async () => {
    const last = await h.coupon({ max_uses: 4, duration: "forever" });
    await t.database.db.update(coupons).set({ uses: 3 }).where(eq(coupons.id, last.id));
    const learners = await Promise.all(Array.from({ length: 20 }, () => t.createUser()));
    const results = await Promise.all(
      learners.map((learner) => h.subscribe(learner, { plan_id: yearly, coupon: last.code })),
    );
    const won = results.filter((r) => r.statusCode === 201);
    const lost = results.filter((r) => r.statusCode === 409 && r.json().code === "COUPON_USED_UP");
    expect([won.length, lost.length]).toEqual([1, 19]);
    expect(await h.uses(last.id)).toBe(4);
    const redemptions = await t.database.db
      .select()
      .from(couponRedemptions)
      .where(eq(couponRedemptions.couponId, last.id));
    expect(redemptions).toHaveLength(1);
    // the losers keep no customer plan: nothing to approve, nothing taken
    const winner = won[0]?.json().data.customerPlan;
    expect(redemptions[0]?.customerPlanId).toBe(winner.id);
    const kept = await t.database.db.select().from(customerPlans).where(eq(customerPlans.planId, yearly));
    expect(kept.filter((r) => learners.some((l) => l.id === r.userId))).toHaveLength(1);
  });
});

describe("coupons on subscriptions, PayPal (plan override)", () => {
  let app: PaypalTestApp;
  const h = billingHelpers(() => ({ t: app.t, admin: app.admin }));
  beforeAll(async () => {
    app = await paypalTestApp({
      // a loaded machine: a status read that timed out would miss the payment PayPal reports
      env: { PAYPAL_TIMEOUT_MS: "15000" },
      plan: { name: "Premium", name_fr: "Premium", amount: 1000, currency: "EUR", interval: "month" },
    });
  });
  afterAll(() => app.close());

  /** Subscribes with the coupon, approves at the fake PayPal, then PayPal bills the next month. */
  async function twoPayments(code: string) {
    const learner = await app.t.createUser();
    const started = await h.subscribe(learner, { plan_id: app.planId, provider: "paypal", coupon: code });
    expect(started.statusCode, started.body).toBe(201);
    const { customerPlan } = started.json().data;
    const subscriptionId = customerPlan.paypal_subscription_id as string;
    app.fake.approve(subscriptionId);
    expect((await h.get(`/update-status/${customerPlan.id}`, learner.token)).statusCode).toBe(200);
    app.fake.renew(subscriptionId, new Date(Date.now() + 31 * 86_400_000));
    expect((await h.get(`/update-status/${customerPlan.id}`, learner.token)).statusCode).toBe(200);
    return {
      learner,
      subscriptionId,
      payments: await h.paymentsOf(learner),
      sent: app.fake.requests.find(
        (r) =>
          r.method === "POST" &&
          r.path === "/v1/billing/subscriptions" &&
          (r.body as { custom_id?: string }).custom_id === customerPlan.id,
      )?.body,
    };
  }

  it("every payment: the plan's cycle priced by the subscription's plan override", async () => {
    const made = await h.coupon({ percent_off: 10, duration: "forever", plan_ids: [app.planId] });
    const { learner, subscriptionId, payments, sent } = await twoPayments(made.code);
    expect(sent).toMatchObject({
      plan_id: app.fake.subscriptions.get(subscriptionId)?.plan_id,
      plan: {
        billing_cycles: [
          { sequence: 1, pricing_scheme: { fixed_price: { value: "9.00", currency_code: "EUR" } } },
        ],
      },
    });
    expect(app.fake.subscriptions.get(subscriptionId)?.plan_overridden).toBe(true);
    expect(payments.map((p) => p.amount)).toEqual([900, 900]);
    for (const p of payments)
      expect(await h.receipt(p.receipt?.id ?? "", learner.token)).toMatchObject({
        list_amount: 1000,
        coupon_code: made.code,
      });
    expect(await h.uses(made.id)).toBe(1);
  });

  it("first payment only: the intro plan's one-cycle TRIAL priced by the override, then the plan's price", async () => {
    const made = await h.coupon({ percent_off: null, amount_off: 400, currency: "EUR", duration: "once" });
    const { learner, subscriptionId, payments } = await twoPayments(made.code);
    const sub = app.fake.subscriptions.get(subscriptionId);
    const intro = app.fake.plans.get(sub?.plan_id ?? "");
    expect(intro?.billing_cycles.map((c) => [c.tenure_type, c.sequence, c.total_cycles])).toEqual([
      ["TRIAL", 1, 1],
      ["REGULAR", 2, 0],
    ]);
    const [kept] = await app.t.database.db.select().from(paypalIntroPlans);
    expect(kept?.paypalPlanId).toBe(intro?.id);
    expect(payments.map((p) => p.amount)).toEqual([600, 1000]);
    const [first, second] = await Promise.all(
      payments.map((p) => h.receipt(p.receipt?.id ?? "", learner.token)),
    );
    expect(first).toMatchObject({ amount: 600, list_amount: 1000, coupon_code: made.code });
    expect(second).toMatchObject({ amount: 1000, list_amount: null, coupon_code: null });
    // a second learner reuses the intro plan
    await twoPayments(made.code);
    expect(await app.t.database.db.select().from(paypalIntroPlans)).toHaveLength(1);
    expect(await h.uses(made.id)).toBe(2);
  });
});
