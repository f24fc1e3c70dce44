import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { type PaypalTestApp, paypalTestApp } from "../../../test/helpers/paypal";
import { customerPlans, payments, subscriptionTrials } from "../../db/schema";

// Trials (issue 28, part 3): a subscription plan may start with free days: PayPal's TRIAL billing
// cycle, or the demo provider's; one trial per learner, ever, held by the database (the primary
// key of subscription_trials) against concurrent checkouts; no invoice for the free days, the first
// one comes with the first payment when they end (docs/decisions.md).

const DAY = 86_400_000;

/** A subscription checkout started by the learner whose token it is. */
const subscribe = (t: TestContext, token: string, payload: object) =>
  t.request({ method: "POST", url: "/api/v1/customer-plan", token, payload });

describe("trials through the demo provider", () => {
  let t: TestContext;
  let admin: string;
  let planId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    admin = await t.adminToken();
    const res = await t.request({
      method: "POST",
      url: "/api/v1/plans",
      token: admin,
      payload: { name: "Monthly", name_fr: "Mensuel", amount: 990, interval: "month", trial_days: 14 },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.plan.trial_days).toBe(14);
    planId = res.json().data.plan.id;
  });
  afterAll(() => t.close());

  const post = (url: string, token: string, payload?: object) =>
    t.request({ method: "POST", url: `/api/v1/customer-plan${url}`, token, ...(payload && { payload }) });
  const trialOf = async (token: string) =>
    (await t.request({ method: "GET", url: "/api/v1/billing/trial", token })).json().data.available;
  const paymentsOf = async (token: string) =>
    (await t.request({ method: "GET", url: "/api/v1/customer-plan/payments", token })).json().data.payments;

  it("staff set free days only on a paid plan billed by month or year, at most 365", async () => {
    const create = (payload: object) =>
      t.request({ method: "POST", url: "/api/v1/plans", token: admin, payload });
    const once = await create({ name: "O", name_fr: "O", amount: 990, interval: "once", trial_days: 7 });
    expect(once.statusCode).toBe(422);
    expect(Object.keys(once.json().errors)).toContain("trial_days");
    const free = await create({ name: "F", name_fr: "F", amount: 0, interval: "month", trial_days: 7 });
    expect(free.statusCode).toBe(422);
    expect((await create({ name: "L", name_fr: "L", amount: 990, trial_days: 366 })).statusCode).toBe(422);
    const edited = await t.request({
      method: "PUT",
      url: `/api/v1/plans/${planId}`,
      token: admin,
      payload: { trial_days: 14 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const toOnce = await t.request({
      method: "PUT",
      url: `/api/v1/plans/${planId}`,
      token: admin,
      payload: { interval: "once", scope: "all" },
    });
    expect(toOnce.statusCode).toBe(422);
  });

  it("the first subscription starts with its free days: ACTIVE, nothing paid, no invoice; the next one has none", async () => {
    const learner = await t.createUser();
    expect(await trialOf(learner.token)).toBe(true);
    const started = await post("", learner.token, { plan_id: planId });
    expect(started.statusCode, started.body).toBe(201);
    const pending = started.json().data.customerPlan;
    expect(pending).toMatchObject({ trial_days: 14, trial_ends_at: null });
    // a checkout in progress holds the trial
    expect(await trialOf(learner.token)).toBe(false);

    const approved = await post(`/demo/${pending.id}/approve`, learner.token);
    expect(approved.statusCode, approved.body).toBe(200);
    const active = approved.json().data.customerPlan;
    expect(active.status).toBe("ACTIVE");
    const ends = new Date(Date.parse(active.started_at) + 14 * DAY).toISOString();
    expect(active.trial_ends_at).toBe(ends);
    expect(active.next_billing_at).toBe(ends);
    expect(active.last_payment_at).toBeNull();
    // no payment, so no invoice for the free days
    expect(await paymentsOf(learner.token)).toEqual([]);
    const valid = await t.request({
      method: "GET",
      url: "/api/v1/customer-plan/has-valid-pro-plan",
      token: learner.token,
    });
    expect(valid.json().data.valid).toBe(true);

    // cancelled during the trial, then subscribed again: paid at once, no second trial
    expect((await post(`/cancel/${active.id}`, learner.token)).statusCode).toBe(200);
    expect(await trialOf(learner.token)).toBe(false);
    const again = (await post("", learner.token, { plan_id: planId })).json().data.customerPlan;
    expect(again).toMatchObject({ trial_days: null, trial_ends_at: null });
    const paid = (await post(`/demo/${again.id}/approve`, learner.token)).json().data.customerPlan;
    expect(paid.last_payment_at).not.toBeNull();
    expect(await paymentsOf(learner.token)).toMatchObject([
      { amount: 990, receipt: { number: expect.any(String) } },
    ]);
  });

  it("a checkout declined before it started gives the trial back", async () => {
    const learner = await t.createUser();
    const first = (await post("", learner.token, { plan_id: planId })).json().data.customerPlan;
    expect(first.trial_days).toBe(14);
    expect((await post(`/demo/${first.id}/decline`, learner.token)).statusCode).toBe(200);
    expect(await trialOf(learner.token)).toBe(true);
    const second = (await post("", learner.token, { plan_id: planId })).json().data.customerPlan;
    expect(second.trial_days).toBe(14);
  });

  it("ten checkouts of one learner at once: exactly one starts with the free days", async () => {
    const learner = await t.createUser();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post("", learner.token, { plan_id: planId })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(10).fill(201));
    const withTrial = results.filter((r) => r.json().data.customerPlan.trial_days === 14);
    expect(withTrial).toHaveLength(1);
    const { db } = t.database;
    const claims = await db
      .select()
      .from(subscriptionTrials)
      .where(eq(subscriptionTrials.userId, learner.id));
    expect(claims).toEqual([
      expect.objectContaining({ customerPlanId: withTrial[0]?.json().data.customerPlan.id }),
    ]);
  });

  it("the database refuses a second trial row for a learner", async () => {
    const learner = await t.createUser();
    const { db } = t.database;
    await db.insert(subscriptionTrials).values({ userId: learner.id, customerPlanId: crypto.randomUUID() });
    await expect(
      db.insert(subscriptionTrials).values({ userId: learner.id, customerPlanId: crypto.randomUUID() }),
    ).rejects.toThrow();
  });
});

describe("trials through PayPal (the fake speaks its TRIAL billing cycle)", () => {
  let app: PaypalTestApp;
  beforeAll(async () => {
    app = await paypalTestApp({
      env: { PAYPAL_TIMEOUT_MS: "15000" },
      plan: { name: "Monthly", name_fr: "Mensuel", amount: 990, interval: "month", trial_days: 7 },
    });
    const seller = await app.t.request({
      method: "POST",
      url: "/api/v1/settings",
      token: app.admin,
      payload: { seller: { vat_scheme: "oss", vat_number: "FR12345678901", country: "FR" } },
    });
    expect(seller.statusCode, seller.body).toBe(200);
  });
  afterAll(() => app.close());

  /** The learner's customer plan read again from PayPal (the return page's call). */
  const statusOf = (id: string, token: string) =>
    app.t.request({ method: "GET", url: `/api/v1/customer-plan/update-status/${id}`, token });

  it("a PayPal plan with a 7-day TRIAL cycle, nothing taken at approval, the first payment (and invoice) when it ends, at the rate of PayPal's payer country", async () => {
    const { t, fake, planId } = app;
    const learner = await t.createUser();
    const started = await subscribe(t, learner.token, { plan_id: planId, country: "DE" });
    expect(started.statusCode, started.body).toBe(201);
    const customerPlan = started.json().data.customerPlan;
    expect(customerPlan.trial_days).toBe(7);
    const subscription = fake.subscriptions.get(customerPlan.paypal_subscription_id);
    const plan = fake.plans.get(subscription?.plan_id ?? "");
    expect(plan?.billing_cycles).toEqual([
      {
        frequency: { interval_unit: "DAY", interval_count: 7 },
        tenure_type: "TRIAL",
        sequence: 1,
        total_cycles: 1,
      },
      expect.objectContaining({
        frequency: { interval_unit: "MONTH", interval_count: 1 },
        tenure_type: "REGULAR",
        sequence: 2,
        pricing_scheme: { fixed_price: { value: "9.90", currency_code: "EUR" } },
      }),
    ]);

    // the learner declared Germany; PayPal says the payer is in Belgium
    fake.approve(customerPlan.paypal_subscription_id, { payer: { country: "BE" } });
    const status = () => statusOf(customerPlan.id, learner.token);
    const active = (await status()).json().data.customerPlan;
    expect(active.status).toBe("ACTIVE");
    expect(active.trial_ends_at).toBe(new Date(Date.parse(active.started_at) + 7 * DAY).toISOString());
    expect(active.next_billing_at).toBe(active.trial_ends_at);
    const { db } = t.database;
    expect(await db.select().from(payments).where(eq(payments.userId, learner.id))).toEqual([]);
    // both countries kept
    const [row] = await db.select().from(customerPlans).where(eq(customerPlans.id, customerPlan.id));
    expect(row).toMatchObject({ buyerCountry: "DE", paymentCountry: "BE" });

    // the trial ends: PayPal bills the regular cycle; Parlons records it with its invoice
    fake.renew(customerPlan.paypal_subscription_id, new Date(active.trial_ends_at));
    expect((await status()).statusCode).toBe(200);
    const history = await t.request({
      method: "GET",
      url: "/api/v1/customer-plan/payments",
      token: learner.token,
    });
    const [payment] = history.json().data.payments;
    expect(payment).toMatchObject({ amount: 990, paid_at: active.trial_ends_at });
    const receipt = await t.request({
      method: "GET",
      url: `/api/v1/receipts/${payment.receipt.id}`,
      token: learner.token,
    });
    // the one-stop shop: Belgium's 21 % (PayPal's country wins over the declared one)
    expect(receipt.json().data.receipt).toMatchObject({
      buyer: { country: "BE" },
      vat: { rate: 2100, amount: 172, net: 818, note: null },
    });
  });

  it("with a coupon on every payment: the free days first, then the discounted price", async () => {
    const { t, fake, planId, admin } = app;
    const coupon = async (duration: "once" | "forever") => {
      const res = await t.request({
        method: "POST",
        url: "/api/v1/coupons",
        token: admin,
        payload: { code: `t-${Math.random().toString(36).slice(2, 8)}`, percent_off: 20, duration },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.coupon.code as string;
    };
    const learner = await t.createUser();
    const started = await subscribe(t, learner.token, { plan_id: planId, coupon: await coupon("forever") });
    expect(started.statusCode, started.body).toBe(201);
    const customerPlan = started.json().data.customerPlan;
    expect(customerPlan.trial_days).toBe(7);
    // PayPal's override prices the REGULAR cycle (sequence 2 after the free TRIAL)
    const subscriptionId = customerPlan.paypal_subscription_id;
    expect(fake.subscriptions.get(subscriptionId)?.cycle_prices).toEqual({
      2: { value: "7.92", currency_code: "EUR" },
    });
    fake.approve(subscriptionId);
    const status = () => statusOf(customerPlan.id, learner.token);
    const active = (await status()).json().data.customerPlan;
    expect(active.last_payment_at).toBeNull();
    fake.renew(subscriptionId, new Date(active.trial_ends_at));
    await status();
    const history = await t.request({
      method: "GET",
      url: "/api/v1/customer-plan/payments",
      token: learner.token,
    });
    expect(history.json().data.payments).toMatchObject([{ amount: 792 }]);
  });

  it("a first-payment coupon with free days: the trial first, then the first paid cycle discounted, then the plan's price", async () => {
    const { t, fake, planId, admin } = app;
    const made = await t.request({
      method: "POST",
      url: "/api/v1/coupons",
      token: admin,
      payload: { code: `o-${Math.random().toString(36).slice(2, 8)}`, percent_off: 50, duration: "once" },
    });
    expect(made.statusCode, made.body).toBe(201);
    const learner = await t.createUser();
    const started = await subscribe(t, learner.token, {
      plan_id: planId,
      coupon: made.json().data.coupon.code,
    });
    expect(started.statusCode, started.body).toBe(201);
    const customerPlan = started.json().data.customerPlan;
    expect(customerPlan.trial_days).toBe(7);
    const subscriptionId = customerPlan.paypal_subscription_id;
    const subscription = fake.subscriptions.get(subscriptionId);
    // the intro plan with free days: the free TRIAL, the one-cycle TRIAL at the plan's price that
    // the override discounts, then the REGULAR cycle
    const cycles = fake.plans.get(subscription?.plan_id ?? "")?.billing_cycles;
    expect(cycles?.map((c) => [c.tenure_type, c.sequence, c.total_cycles])).toEqual([
      ["TRIAL", 1, 1],
      ["TRIAL", 2, 1],
      ["REGULAR", 3, 0],
    ]);
    expect(cycles?.[0]?.frequency).toEqual({ interval_unit: "DAY", interval_count: 7 });
    expect(subscription?.cycle_prices).toEqual({ 2: { value: "4.95", currency_code: "EUR" } });
    // the intro plan is kept per number of free days: the same one serves the next learner
    const next = await t.createUser();
    const again = await subscribe(t, next.token, { plan_id: planId, coupon: made.json().data.coupon.code });
    expect(fake.subscriptions.get(again.json().data.customerPlan.paypal_subscription_id)?.plan_id).toBe(
      subscription?.plan_id,
    );

    fake.approve(subscriptionId);
    const status = () => statusOf(customerPlan.id, learner.token);
    const active = (await status()).json().data.customerPlan;
    expect(active).toMatchObject({ status: "ACTIVE", last_payment_at: null });
    const firstPaid = new Date(active.trial_ends_at);
    fake.renew(subscriptionId, firstPaid);
    await status();
    fake.renew(subscriptionId, new Date(firstPaid.getTime() + 31 * DAY));
    await status();
    const history = await t.request({
      method: "GET",
      url: "/api/v1/customer-plan/payments",
      token: learner.token,
    });
    const paid = history.json().data.payments as { amount: number; receipt: { id: string } }[];
    expect(paid.map((p) => p.amount).reverse()).toEqual([495, 990]);
    const invoice = async (id: string) =>
      (await t.request({ method: "GET", url: `/api/v1/receipts/${id}`, token: learner.token })).json().data
        .receipt;
    expect(await invoice(paid[1]?.receipt.id ?? "")).toMatchObject({ amount: 495, list_amount: 990 });
    expect((await invoice(paid[0]?.receipt.id ?? "")).coupon_code).toBeNull();
  });

  it("a learner whose trial is used subscribes to the PayPal plan without it", async () => {
    const { t, fake, planId } = app;
    const learner = await t.createUser();
    const start = async () => {
      const res = await subscribe(t, learner.token, { plan_id: planId });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.customerPlan;
    };
    const first = await start();
    fake.approve(first.paypal_subscription_id);
    await t.request({
      method: "GET",
      url: `/api/v1/customer-plan/update-status/${first.id}`,
      token: learner.token,
    });
    const cancelled = await t.request({
      method: "POST",
      url: `/api/v1/customer-plan/cancel/${first.id}`,
      token: learner.token,
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const second = await start();
    expect(second.trial_days).toBeNull();
    const trialPlan = fake.subscriptions.get(first.paypal_subscription_id)?.plan_id;
    const regularPlan = fake.subscriptions.get(second.paypal_subscription_id)?.plan_id;
    expect(regularPlan).not.toBe(trialPlan);
    expect(fake.plans.get(regularPlan ?? "")?.billing_cycles.map((c) => c.tenure_type)).toEqual(["REGULAR"]);

    // a new price: a new regular PayPal plan (still without the trial), and the trial plan is made again
    const repriced = await t.request({
      method: "PUT",
      url: `/api/v1/plans/${planId}`,
      token: app.admin,
      payload: { amount: 1290 },
    });
    expect(repriced.statusCode, repriced.body).toBe(200);
    const newest = [...fake.plans.values()].at(-1);
    expect(newest?.billing_cycles.map((c) => c.tenure_type)).toEqual(["REGULAR"]);
    const fresh = await t.createUser();
    const trialCheckout = await subscribe(t, fresh.token, { plan_id: planId });
    const trialSubscription = fake.subscriptions.get(
      trialCheckout.json().data.customerPlan.paypal_subscription_id,
    );
    const trialCycles = fake.plans.get(trialSubscription?.plan_id ?? "")?.billing_cycles;
    expect(trialCycles?.map((c) => c.tenure_type)).toEqual(["TRIAL", "REGULAR"]);
    expect(trialCycles?.[1]?.pricing_scheme?.fixed_price.value).toBe("12.90");
  });
});
