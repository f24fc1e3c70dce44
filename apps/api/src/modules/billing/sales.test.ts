import { parse } from "csv-parse/sync";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseInput, createOnceOffer } from "../../../test/helpers/learning";
import { payments, receipts } from "../../db/schema";

// The staff's view of sales (issue 28, part 6): sums checked against known payments — courses
// bought once (one with a coupon, one of two courses refunded), subscriptions (one with a coupon on
// every payment) — with the refund netted, a payment outside the period left out, and the CSV.
let t: TestContext;
let admin: string;
let courseA: string;
let courseB: string;
let offerA: string;
let offerAB: string;
let monthly: string;
let pastReceipt: string;
const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const period = `from=${day(-1)}&to=${day(1)}`;

async function buy(plan: string, coupon?: string) {
  const learner = await t.createUser();
  const started = await t.request({
    method: "POST",
    url: "/api/v1/purchases",
    token: learner.token,
    payload: { plan_id: plan, ...(coupon && { coupon }) },
  });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json().data.purchase.id as string;
  const paid = await t.request({
    method: "POST",
    url: `/api/v1/purchases/${id}/demo/approve`,
    token: learner.token,
  });
  expect(paid.json().data.purchase.status).toBe("PAID");
  return { id, receipt: paid.json().data.purchase.receipt.id as string };
}

async function subscribe(coupon?: string) {
  const learner = await t.createUser();
  const started = await t.request({
    method: "POST",
    url: "/api/v1/customer-plan",
    token: learner.token,
    payload: { plan_id: monthly, ...(coupon && { coupon }) },
  });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json().data.customerPlan.id;
  const approved = await t.request({
    method: "POST",
    url: `/api/v1/customer-plan/demo/${id}/approve`,
    token: learner.token,
  });
  expect(approved.json().data.customerPlan.status).toBe("ACTIVE");
}

async function coupon(payload: object) {
  const res = await t.request({ method: "POST", url: "/api/v1/coupons", token: admin, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.coupon.code as string;
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  const course = async (title: string) =>
    (
      await t.request({
        method: "POST",
        url: "/api/v1/courses",
        token: admin,
        payload: courseInput({ title_en: title, title_fr: title }),
      })
    ).json().data.course.id as string;
  courseA = await course("Course A");
  courseB = await course("Course B");
  offerA = await createOnceOffer(t, admin, [courseA], {
    name: "A for life",
    name_fr: "A à vie",
    amount: 5000,
  });
  offerAB = await createOnceOffer(t, admin, [courseA, courseB], {
    name: "A and B",
    name_fr: "A et B",
    amount: 3001,
  });
  monthly = (
    await t.request({
      method: "POST",
      url: "/api/v1/plans",
      token: admin,
      payload: { name: "Monthly", name_fr: "Mensuel", amount: 1000, interval: "month" },
    })
  ).json().data.plan.id;

  const twenty = await coupon({ code: "SALES-20", percent_off: 20 });
  const tenForever = await coupon({ code: "SALES-10", percent_off: 10, duration: "forever" });
  await buy(offerA, twenty); // 40.00 € (list 50.00)
  const both = await buy(offerAB); // 30.01 €, refunded below
  const refund = await t.request({
    method: "POST",
    url: `/api/v1/purchases/${both.id}/refund`,
    token: admin,
  });
  expect(refund.json().data.purchase.status).toBe("REFUNDED");
  await subscribe(tenForever); // 9.00 € (list 10.00)
  await subscribe(); // 10.00 €
  // a sale long ago: outside the period
  const past = await buy(offerA);
  const [row] = await t.database.db.select().from(receipts).where(eq(receipts.id, past.receipt));
  const then = new Date("2020-03-15T12:00:00Z");
  await t.database.db
    .update(payments)
    .set({ paidAt: then })
    .where(eq(payments.id, row?.paymentId ?? ""));
  await t.database.db.update(receipts).set({ issuedAt: then }).where(eq(receipts.id, past.receipt));
  pastReceipt = row?.number ?? "";
});
afterAll(() => t.close());

const report = async (query: string, token = admin) =>
  t.request({ method: "GET", url: `/api/v1/sales?${query}`, token });

describe("the staff's view of sales", () => {
  it("adds up the period's payments and refunds by currency, offer and course, refunds netted", async () => {
    const res = await report(period);
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json().data.report;
    expect(r.totals).toEqual([
      { currency: "EUR", payments: 4, refunds: 1, gross: 8901, refunded: 3001, net: 5900 },
    ]);
    const plan = (id: string) => r.by_plan.find((p: { plan_id: string }) => p.plan_id === id);
    expect(plan(offerA)).toMatchObject({ item: "course", payments: 1, gross: 4000, refunded: 0, net: 4000 });
    expect(plan(offerAB)).toMatchObject({ payments: 1, refunds: 1, gross: 3001, refunded: 3001, net: 0 });
    expect(plan(monthly)).toMatchObject({
      item: "subscription",
      plan_name: "Monthly",
      plan_name_fr: "Mensuel",
      payments: 2,
      gross: 1900,
      net: 1900,
    });
    expect(r.by_plan).toHaveLength(3);
    // the offer of two courses shares its 30.01 € between them (the odd cent to the first of the offer)
    const [a, b2] = [courseA, courseB].map((id) =>
      r.by_course.find((c: { course_id: string }) => c.course_id === id),
    );
    expect(a).toMatchObject({ title_en: "Course A", currency: "EUR", sales: 2, refunds: 1, net: 4000 });
    expect(b2).toMatchObject({ title_en: "Course B", currency: "EUR", sales: 1, refunds: 1, net: 0 });
    expect([a.gross - 4000, b2.gross].sort()).toEqual([1500, 1501]);
    expect([a.refunded, b2.refunded].sort()).toEqual([1500, 1501]);
    expect(r.by_course).toHaveLength(2);
    expect(r.coupon_uses).toEqual([
      { code: "SALES-10", uses: 1, discount: 100, currency: "EUR" },
      { code: "SALES-20", uses: 1, discount: 1000, currency: "EUR" },
    ]);
    expect([r.orders_total, r.refunds_total]).toEqual([4, 1]);
    expect(r.orders.map((o: { amount: number }) => o.amount).sort()).toEqual([1000, 3001, 4000, 900].sort());
    const refunded = r.orders.find((o: { amount: number }) => o.amount === 3001);
    expect(refunded.credit_note_number).toBe(r.refunds[0].credit_note_number);
    expect(r.refunds[0]).toMatchObject({ amount: 3001, item: "course", plan_id: offerAB });
    expect(r.orders.find((o: { amount: number }) => o.amount === 4000)).toMatchObject({
      list_amount: 5000,
      coupon_code: "SALES-20",
    });
  });

  it("reads only the period: the old sale alone in its day, nothing in an empty one", async () => {
    const old = (await report("from=2020-03-15&to=2020-03-15")).json().data.report;
    expect(old.totals).toEqual([
      { currency: "EUR", payments: 1, refunds: 0, gross: 5000, refunded: 0, net: 5000 },
    ]);
    expect(old.orders[0].receipt_number).toBe(pastReceipt);
    expect(old.coupon_uses).toEqual([]);
    const none = (await report("from=2021-01-01&to=2021-12-31")).json().data.report;
    expect([none.totals, none.by_plan, none.by_course, none.orders, none.refunds]).toEqual([
      [],
      [],
      [],
      [],
      [],
    ]);
  });

  it("exports each table as CSV, every row", async () => {
    const csv = async (table: string) => {
      const res = await t.request({
        method: "GET",
        url: `/api/v1/sales/csv?${period}&table=${table}`,
        token: admin,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(res.headers["content-disposition"]).toContain(`parlons-sales-${table}-`);
      return parse(res.body, { columns: true }) as Record<string, string>[];
    };
    const orders = await csv("orders");
    expect(orders.map((o) => o.amount).sort()).toEqual(["10.00", "30.01", "40.00", "9.00"]);
    expect(orders.find((o) => o.amount === "40.00")).toMatchObject({
      item: "course",
      offer: "A for life",
      list_amount: "50.00",
      coupon: "SALES-20",
      currency: "EUR",
    });
    expect(await csv("refunds")).toMatchObject([{ amount: "30.01", offer: "A and B", item: "course" }]);
    const plans = await csv("plans");
    expect(plans.find((p) => p.offer === "Monthly")).toMatchObject({
      payments: "2",
      gross: "19.00",
      net: "19.00",
    });
    const courses = await csv("courses");
    expect(courses.map((c) => [c.course, c.net]).sort()).toEqual([
      ["Course A", "40.00"],
      ["Course B", "0.00"],
    ]);
    const cents = (key: string) => courses.reduce((n, c) => n + Math.round(Number(c[key]) * 100), 0);
    expect([cents("gross"), cents("refunded"), cents("net")]).toEqual([7001, 3001, 4000]);
    expect(await csv("coupons")).toEqual([
      { code: "SALES-10", uses: "1", discount: "1.00", currency: "EUR" },
      { code: "SALES-20", uses: "1", discount: "10.00", currency: "EUR" },
    ]);
  });

  it("lists the trials started in the period and how they came out, in the report and its CSV", async () => {
    const plan = await t.request({
      method: "POST",
      url: "/api/v1/plans",
      token: admin,
      payload: { name: "Tried", name_fr: "Essayé", amount: 800, interval: "month", trial_days: 5 },
    });
    const tried = plan.json().data.plan.id as string;
    const start = async (payload: object = {}) => {
      const learner = await t.createUser();
      const res = await t.request({
        method: "POST",
        url: "/api/v1/customer-plan",
        token: learner.token,
        payload: { plan_id: tried, ...payload },
      });
      const id = res.json().data.customerPlan.id as string;
      await t.request({
        method: "POST",
        url: `/api/v1/customer-plan/demo/${id}/approve`,
        token: learner.token,
      });
      return { learner, id };
    };
    const converted = await start();
    // its free days end: the demo bills the first period
    await t.app.deps.services.billing.syncDue(new Date(Date.now() + 5 * DAY + 3_600_000));
    const running = await start({ coupon: await coupon({ code: "TRY-50", percent_off: 50 }) });
    const cancelled = await start();
    await t.request({
      method: "POST",
      url: `/api/v1/customer-plan/cancel/${cancelled.id}`,
      token: cancelled.learner.token,
    });
    const r = (await report(period)).json().data.report;
    expect(r.trial_counts).toEqual({ started: 3, running: 1, converted: 1, ended: 1 });
    const of = (id: string) => r.trials.find((x: { customer_plan_id: string }) => x.customer_plan_id === id);
    expect(of(running.id)).toMatchObject({
      outcome: "running",
      trial_days: 5,
      plan_name: "Tried",
      plan_name_fr: "Essayé",
      buyer_email: running.learner.email,
      coupon_code: "TRY-50",
    });
    expect(of(cancelled.id).outcome).toBe("ended");
    expect(of(converted.id).outcome).toBe("converted");
    expect(Date.parse(of(converted.id).ends_at) - Date.parse(of(converted.id).started_at)).toBe(5 * DAY);
    // a trial takes no money: its order is the first payment, when the free days end
    const none = (await report("from=2021-01-01&to=2021-12-31")).json().data.report;
    expect(none.trial_counts.started).toBe(0);

    const res = await t.request({
      method: "GET",
      url: `/api/v1/sales/csv?${period}&table=trials`,
      token: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(rows.map((x) => x.outcome).sort()).toEqual(["converted", "ended", "running"]);
    expect(rows.find((x) => x.outcome === "running")).toMatchObject({
      days: "5",
      offer: "Tried",
      buyer: running.learner.email,
      coupon: "TRY-50",
    });
  });

  it("refuses learners, a period the wrong way round or too long, and an unknown table", async () => {
    const learner = await t.createUser();
    expect((await report(period, learner.token)).statusCode).toBe(403);
    for (const bad of [
      "from=2025-02-01&to=2025-01-01",
      "from=2020-01-01&to=2025-01-01",
      "from=2025-13-01&to=2025-01-01",
      "to=2025-01-01",
    ]) {
      const res = await report(bad);
      expect([res.statusCode, res.json().code], bad).toEqual([422, "VALIDATION_FAILED"]);
    }
    const table = await t.request({
      method: "GET",
      url: `/api/v1/sales/csv?${period}&table=users`,
      token: admin,
    });
    expect(table.statusCode).toBe(422);
  });
});
