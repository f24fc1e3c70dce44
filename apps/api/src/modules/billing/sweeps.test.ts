import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billingHelpers, type Learner } from "../../../test/helpers/billing";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons, createOnceOffer } from "../../../test/helpers/learning";
import { customerPlans, jobLeases, purchases } from "../../db/schema";
import { startCheckoutSweep } from "../../jobs/checkout-sweep";
import { startSubscriptionSync } from "../../jobs/subscription-sync";
import { receiptNumber } from "./receipts";

// The billing sweeps (issue 28): demo subscriptions billed each period with an invoice (one
// numbered series, VAT of the buyer's country) through the subscription-sync job; checkouts left
// pending past PayPal's approval window closed by the checkout-sweep job, their coupon's use given
// back (never past the maximum, whatever runs at once); a stale checkout with free days approved
// after the learner's one trial went elsewhere never starts.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let t: TestContext;
let admin: string;
let monthly: string;
let withTrial: string;
const h = billingHelpers(() => ({ t, admin }));

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  monthly = await h.plan({ name: "Monthly", name_fr: "Mensuel", amount: 1190, interval: "month" });
  withTrial = await h.plan({
    name: "Trial",
    name_fr: "Essai",
    amount: 990,
    interval: "month",
    trial_days: 7,
  });
  const seller = await t.request({
    method: "POST",
    url: "/api/v1/settings",
    token: admin,
    payload: { seller: { vat_scheme: "oss", vat_number: "FR12345678901", country: "FR" } },
  });
  expect(seller.statusCode, seller.body).toBe(200);
});
afterAll(() => t.close());

const jobOpts = () => ({ db: t.database.db, log: t.app.log, schedule: false as const });
const syncJob = () =>
  startSubscriptionSync({ ...jobOpts(), billing: t.app.deps.services.billing, intervalSeconds: 3600 });
const sweepJob = () =>
  startCheckoutSweep({
    ...jobOpts(),
    billing: t.app.deps.services.billing,
    purchases: t.app.deps.services.purchases,
  });
const rowOf = async (id: string) =>
  (await t.database.db.select().from(customerPlans).where(eq(customerPlans.id, id)))[0];
/** Makes a checkout look started `hours` ago. */
const age = (id: string, hours: number) =>
  t.database.db
    .update(customerPlans)
    .set({ createdAt: new Date(Date.now() - hours * HOUR) })
    .where(eq(customerPlans.id, id));

/** A learner subscribed through the demo checkout (approved), declaring `country`. */
async function subscribed(planId: string, payload: object = {}) {
  const learner: Learner = await t.createUser();
  const started = await h.subscribe(learner, { plan_id: planId, ...payload });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json().data.customerPlan.id as string;
  const approved = await h.post(`/demo/${id}/approve`, learner.token);
  expect(approved.statusCode, approved.body).toBe(200);
  return { learner, id, approved: approved.json().data.customerPlan };
}

describe("demo renewals", () => {
  it("each period is billed once, with an invoice in the one series at the buyer's country's VAT", async () => {
    const { learner, id, approved } = await subscribed(monthly, { country: "DE" });
    expect(await h.paymentsOf(learner)).toHaveLength(1);
    const firstDue = new Date(approved.next_billing_at);
    // the sync before the period ends bills nothing
    await t.database.db.delete(jobLeases);
    expect(await syncJob().runOnce(new Date(firstDue.getTime() - HOUR))).toBe(true);
    expect(await h.paymentsOf(learner)).toHaveLength(1);

    // two periods later, two processes' runs at once: each period billed once
    const later = new Date(firstDue.getTime() + 32 * DAY);
    await t.database.db.delete(jobLeases);
    await Promise.all([
      t.app.deps.services.billing.syncDue(later),
      t.app.deps.services.billing.syncDue(later),
    ]);
    const paid = await h.paymentsOf(learner);
    expect(paid.map((p) => p.amount)).toEqual([1190, 1190, 1190]);
    const invoices = await Promise.all(paid.map((p) => h.receipt(p.receipt?.id ?? "", learner.token)));
    // the one series (by year of payment): each renewal takes the next number of its year,
    // nothing else being paid meanwhile
    const numbers = invoices.map((r) => String(r.number));
    const expected = [numbers[0]];
    for (let i = 1; i < paid.length; i += 1) {
      const [, prevYear, prevSeq] = String(expected[i - 1]).split("-");
      const year = new Date(paid[i]?.paid_at ?? 0).getUTCFullYear();
      const seq = String(year) === prevYear ? Number(prevSeq) + 1 : 1;
      expected.push(receiptNumber(year, seq));
    }
    expect(numbers).toEqual(expected);
    for (const invoice of invoices) expect(invoice.vat).toMatchObject({ rate: 1900, amount: 190 });
    const row = await rowOf(id);
    expect(row?.status).toBe("ACTIVE");
    expect(row?.nextBillingAt?.getTime()).toBeGreaterThan(later.getTime());
  });

  it("a first-payment coupon discounts the first payment only; a coupon for every payment, each renewal", async () => {
    const once = await h.coupon({ percent_off: 50, duration: "once" });
    const forever = await h.coupon({ percent_off: 10, duration: "forever" });
    const a = await subscribed(monthly, { coupon: once.code });
    const b = await subscribed(monthly, { coupon: forever.code });
    const later = new Date(new Date(a.approved.next_billing_at).getTime() + HOUR);
    await t.app.deps.services.billing.syncDue(later);
    expect((await h.paymentsOf(a.learner)).map((p) => p.amount)).toEqual([595, 1190]);
    expect((await h.paymentsOf(b.learner)).map((p) => p.amount)).toEqual([1071, 1071]);
    const [, renewal] = await h.paymentsOf(b.learner);
    expect((await h.receipt(renewal?.receipt?.id ?? "", b.learner.token)).coupon_code).toBe(forever.code);
  });

  it("after free days the first period is billed when they end (a first-payment coupon's price); a cancelled subscription is never billed", async () => {
    const { learner, approved } = await subscribed(withTrial);
    expect(await h.paymentsOf(learner)).toEqual([]);
    const trialEnd = new Date(approved.next_billing_at);
    await t.app.deps.services.billing.syncDue(new Date(trialEnd.getTime() + HOUR));
    expect((await h.paymentsOf(learner)).map((p) => p.amount)).toEqual([990]);

    // a first-payment coupon with free days: the first paid cycle, when they end, is discounted
    const half = await h.coupon({ percent_off: 50, duration: "once" });
    const coupled = await subscribed(withTrial, { coupon: half.code });
    expect(coupled.approved).toMatchObject({ trial_days: 7, last_payment_at: null });
    const end = new Date(coupled.approved.next_billing_at);
    await t.app.deps.services.billing.syncDue(new Date(end.getTime() + HOUR));
    await t.app.deps.services.billing.syncDue(new Date(end.getTime() + 32 * DAY));
    const coupledPaid = await h.paymentsOf(coupled.learner);
    expect(coupledPaid.map((p) => p.amount)).toEqual([495, 990]);
    expect((await h.receipt(coupledPaid[0]?.receipt?.id ?? "", coupled.learner.token)).coupon_code).toBe(
      half.code,
    );

    const gone = await subscribed(monthly);
    expect((await h.post(`/cancel/${gone.id}`, gone.learner.token)).statusCode).toBe(200);
    await t.app.deps.services.billing.syncDue(new Date(Date.now() + 40 * DAY));
    expect(await h.paymentsOf(gone.learner)).toHaveLength(1);
  });
});

describe("stale checkouts", () => {
  it("a checkout pending past the approval window is closed and gives its coupon's last use back, once", async () => {
    const last = await h.coupon({ percent_off: 20, max_uses: 1 });
    const stale: Learner = await t.createUser();
    const pending = (await h.subscribe(stale, { plan_id: monthly, coupon: last.code })).json().data
      .customerPlan;
    expect(await h.uses(last.id)).toBe(1);
    const other: Learner = await t.createUser();
    expect((await h.subscribe(other, { plan_id: monthly, coupon: last.code })).statusCode).toBe(409);

    // a recent checkout is left alone
    await t.database.db.delete(jobLeases);
    await sweepJob().runOnce();
    expect((await rowOf(pending.id))?.status).toBe("APPROVAL_PENDING");

    await age(pending.id, 4);
    // two sweeps at once (two processes, the lease aside): the use comes back once
    await Promise.all([
      t.app.deps.services.billing.expireCheckouts(),
      t.app.deps.services.billing.expireCheckouts(),
    ]);
    expect((await rowOf(pending.id))?.status).toBe("CANCELLED");
    expect(await h.uses(last.id)).toBe(0);
    // the closed checkout cannot be approved afterwards
    expect((await h.post(`/demo/${pending.id}/approve`, stale.token)).statusCode).toBe(409);

    // the use given back goes to exactly one of ten learners at once
    const learners = await Promise.all(Array.from({ length: 10 }, () => t.createUser()));
    const results = await Promise.all(
      learners.map((l) => h.subscribe(l, { plan_id: monthly, coupon: last.code })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(9);
    expect(await h.uses(last.id)).toBe(1);
  });

  it("a stale checkout approved meanwhile starts instead of closing", async () => {
    const learner: Learner = await t.createUser();
    const pending = (await h.subscribe(learner, { plan_id: monthly })).json().data.customerPlan;
    const row = await rowOf(pending.id);
    // the buyer approved at the provider; we never saw the return
    await t.app.deps.providers.demo?.approve(row?.providerSubscriptionId ?? "", pending.id, {
      amount: 1190,
      currency: "EUR",
      interval: "month",
    });
    await age(pending.id, 4);
    const result = await t.app.deps.services.billing.expireCheckouts();
    expect(result.started).toBeGreaterThanOrEqual(1);
    expect((await rowOf(pending.id))?.status).toBe("ACTIVE");
  });

  it("a purchase pending past the approval window is closed unpaid", async () => {
    const { course } = await courseWithLessons(t, admin);
    const offer = await createOnceOffer(t, admin, [course.id]);
    const learner: Learner = await t.createUser();
    const started = await t.request({
      method: "POST",
      url: "/api/v1/purchases",
      token: learner.token,
      payload: { plan_id: offer },
    });
    expect(started.statusCode, started.body).toBe(201);
    const id = started.json().data.purchase.id as string;
    await t.database.db
      .update(purchases)
      .set({ createdAt: new Date(Date.now() - 4 * HOUR) })
      .where(eq(purchases.id, id));
    await t.database.db.delete(jobLeases);
    await sweepJob().runOnce();
    const [row] = await t.database.db.select().from(purchases).where(eq(purchases.id, id));
    expect(row?.status).toBe("CANCELLED");
    const approve = await t.request({
      method: "POST",
      url: `/api/v1/purchases/${id}/demo/approve`,
      token: learner.token,
    });
    expect(approve.statusCode).toBe(409);
  });
});

describe("one trial per learner, ever, at activation", () => {
  it("a stale checkout with free days approved after the trial was used elsewhere is cancelled, never started", async () => {
    const learner: Learner = await t.createUser();
    const stale = (await h.subscribe(learner, { plan_id: withTrial })).json().data.customerPlan;
    expect(stale.trial_days).toBe(7);
    await age(stale.id, 4);
    // the stale checkout no longer holds the trial: a new one takes it, starts, then is cancelled
    const fresh = (await h.subscribe(learner, { plan_id: withTrial })).json().data.customerPlan;
    expect(fresh.trial_days).toBe(7);
    expect((await h.post(`/demo/${fresh.id}/approve`, learner.token)).statusCode).toBe(200);
    expect((await h.post(`/cancel/${fresh.id}`, learner.token)).statusCode).toBe(200);

    const late = await h.post(`/demo/${stale.id}/approve`, learner.token);
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json().data.customerPlan).toMatchObject({ status: "CANCELLED", started_at: null });
    expect(await h.paymentsOf(learner)).toEqual([]);
    const trial = await t.request({ method: "GET", url: "/api/v1/billing/trial", token: learner.token });
    expect(trial.json().data.available).toBe(false);
  });
});
