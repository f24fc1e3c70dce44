import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePaypal } from "../../../test/fakes/paypal-server";
import type { TestContext } from "../../../test/helpers/build";
import { deliverSaleTwice, type PaypalTestApp, paypalTestApp } from "../../../test/helpers/paypal";
import { mailOutbox, payments, receipts } from "../../db/schema";
import { startOutboxWorker } from "../../jobs/outbox-worker";
import { receiptNumber } from "./receipts";

// Receipts: one per payment (PayPal first payment, renewal by webhook, demo), numbered without
// gaps or duplicates under concurrent payments, readable by their learner and staff, printed as
// a PDF in the learner's language, and mailed once through the outbox.
let t: TestContext;
let fake: FakePaypal;
let admin: string;
let planId: string;
let app: PaypalTestApp;
beforeAll(async () => {
  // no "PayPal hangs" case here: a timeout that a loaded machine's concurrent payments never reach
  app = await paypalTestApp({
    env: { PAYPAL_TIMEOUT_MS: "15000" },
    plan: {
      name: "Premium monthly",
      name_fr: "Premium mensuel",
      amount: 990,
      currency: "EUR",
      interval: "month",
    },
  });
  ({ t, fake, admin, planId } = app);
  const seller = await t.request({
    method: "POST",
    url: "/api/v1/settings",
    token: admin,
    payload: {
      seller: {
        name: "Parlons SAS",
        address: "12 rue de la Paix\n75002 Paris",
        tax_id: "SIRET 123 456 789 00012",
      },
    },
  });
  expect(seller.statusCode).toBe(200);
});
afterAll(() => app.close());

type Learner = { id: string; email: string; token: string };

/** The learner starts a checkout and approves it at PayPal; nothing is paid on Parlons' side yet. */
async function checkout(learner: Learner) {
  const started = await t.request({
    method: "POST",
    url: "/api/v1/customer-plan",
    token: learner.token,
    payload: { plan_id: planId },
  });
  expect(started.statusCode, started.body).toBe(201);
  const customerPlan = started.json().data.customerPlan;
  fake.approve(customerPlan.paypal_subscription_id);
  return customerPlan as { id: string; paypal_subscription_id: string };
}

/** The return page: Parlons reads the subscription and records its first payment. */
async function pay(learner: Learner, customerPlan: { id: string; paypal_subscription_id: string }) {
  const res = await t.request({
    method: "GET",
    url: `/api/v1/customer-plan/update-status/${customerPlan.id}`,
    token: learner.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().data.customerPlan.status).toBe("ACTIVE");
  return {
    customerPlanId: customerPlan.id,
    subscriptionId: customerPlan.paypal_subscription_id,
  };
}

const subscribeAndPay = async (learner: Learner) => pay(learner, await checkout(learner));

/** Checkouts one after the other (PayPal's fake is not under test), then every payment at once. */
async function payAtOnce(learners: Learner[]) {
  const started: { id: string; paypal_subscription_id: string }[] = [];
  for (const learner of learners) started.push(await checkout(learner));
  await Promise.all(learners.map((learner, i) => pay(learner, started[i] as (typeof started)[number])));
}

const history = async (token: string) =>
  (await t.request({ method: "GET", url: "/api/v1/customer-plan/payments", token })).json().data.payments;

describe("receipts", () => {
  it("a payment gets a numbered receipt: history, page, PDF, mail", async () => {
    const learner = await t.createUser({ speak: "EN" });
    await subscribeAndPay(learner);
    const [payment] = await history(learner.token);
    expect(payment).toMatchObject({
      amount: 990,
      currency: "EUR",
      status: "PAID",
      plan_name: "Premium monthly",
      plan_name_fr: "Premium mensuel",
    });
    expect(payment.receipt.number).toMatch(/^R-\d{4}-\d{6}$/);

    const page = await t.request({
      method: "GET",
      url: `/api/v1/receipts/${payment.receipt.id}`,
      token: learner.token,
    });
    expect(page.statusCode).toBe(200);
    expect(page.json().data.receipt).toMatchObject({
      number: payment.receipt.number,
      payment_id: payment.id,
      lang: "EN",
      amount: 990,
      currency: "EUR",
      buyer: { email: learner.email },
      seller: {
        name: "Parlons SAS",
        address: "12 rue de la Paix\n75002 Paris",
        tax_id: "SIRET 123 456 789 00012",
      },
    });

    const pdf = await t.request({
      method: "GET",
      url: `/api/v1/receipts/${payment.receipt.id}/pdf`,
      token: learner.token,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["content-disposition"]).toBe(`attachment; filename="${payment.receipt.number}.pdf"`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.rawPayload.length).toBeGreaterThan(1000);
    const french = await t.request({
      method: "GET",
      url: `/api/v1/receipts/${payment.receipt.id}/pdf?lang=fr`,
      token: learner.token,
    });
    expect(french.statusCode).toBe(200);
    expect(french.rawPayload.toString("latin1")).toContain("/Title");
    expect(french.rawPayload.equals(pdf.rawPayload)).toBe(false);
    // every site language may be asked for (the /es receipt page asks for Spanish)
    const spanish = await t.request({
      method: "GET",
      url: `/api/v1/receipts/${payment.receipt.id}/pdf?lang=es`,
      token: learner.token,
    });
    expect(spanish.statusCode).toBe(200);
    expect(spanish.rawPayload.equals(french.rawPayload)).toBe(false);

    // the mail was queued with the payment; the worker sends it once
    const worker = startOutboxWorker({
      outbox: t.app.deps.services.mailOutbox,
      mailer: t.mailbox,
      log: t.app.log,
      schedule: false,
    });
    await worker.runOnce();
    await worker.runOnce();
    const mails = t.mailbox.messages.filter(
      (m) => m.to === learner.email && m.subject === "Your Parlons receipt",
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(payment.receipt.number);
    expect(mails[0]?.text).toContain("€9.90");
    expect(mails[0]?.text).toContain(`http://parlons.test/en/billing/receipts/${payment.receipt.id}`);
    await worker.stop();
  });

  it("a renewal paid through a webhook gets the next receipt; a repeated delivery none", async () => {
    const learner = await t.createUser();
    const { subscriptionId } = await subscribeAndPay(learner);
    const sub = fake.subscriptions.get(subscriptionId);
    if (!sub?.billing_info?.last_payment) throw new Error("no first payment");
    const renewal = new Date(Date.parse(sub.billing_info.last_payment.time) + 31 * 86_400_000);
    sub.billing_info.last_payment = {
      ...sub.billing_info.last_payment,
      time: renewal.toISOString().replace(/\.\d{3}Z$/, "Z"),
    };
    expect(await deliverSaleTwice(t, fake, { id: "SALE-RENEW", subscriptionId, total: "9.90" })).toEqual([
      200, 200,
    ]);
    const paid = await history(learner.token);
    expect(paid).toHaveLength(2);
    const numbers = paid.map((p: { receipt: { number: string } }) => p.receipt.number);
    expect(new Set(numbers).size).toBe(2);
  });

  it("only its learner and staff read a receipt; others get 404, anonymous 401", async () => {
    const owner = await t.createUser();
    await subscribeAndPay(owner);
    const [payment] = await history(owner.token);
    const stranger = await t.createUser();
    const url = `/api/v1/receipts/${payment.receipt.id}`;
    expect((await t.request({ method: "GET", url, token: stranger.token })).statusCode).toBe(404);
    expect((await t.request({ method: "GET", url: `${url}/pdf`, token: stranger.token })).statusCode).toBe(
      404,
    );
    expect((await t.request({ method: "GET", url })).statusCode).toBe(401);
    expect((await t.request({ method: "GET", url, token: admin })).statusCode).toBe(200);
    expect((await t.request({ method: "GET", url: `${url}/pdf`, token: admin })).statusCode).toBe(200);
    const missing = "/api/v1/receipts/00000000-0000-4000-8000-000000000000";
    expect((await t.request({ method: "GET", url: missing, token: admin })).statusCode).toBe(404);
  });

  it("concurrent payments are numbered 1, 2, 3… with no gap and no duplicate; a rolled-back payment takes its number back", async () => {
    const learners = await Promise.all(Array.from({ length: 12 }, () => t.createUser()));
    await payAtOnce(learners);

    // a payment whose transaction fails after its receipt was numbered
    const { db } = t.database;
    const [anyPayment] = await db.select().from(payments).limit(1);
    if (!anyPayment) throw new Error("no payment");
    await expect(
      db.transaction(async (tx) => {
        const [p] = await tx
          .insert(payments)
          .values({ ...anyPayment, id: undefined, providerPaymentId: "ROLLED-BACK", createdAt: undefined })
          .returning();
        if (!p) throw new Error("no insert");
        await t.app.deps.services.receipts.issue(p, planId, tx);
        throw new Error("the payment fails after its receipt");
      }),
    ).rejects.toThrow("the payment fails");

    const more = await Promise.all(Array.from({ length: 4 }, () => t.createUser()));
    await payAtOnce(more);

    const rows = await db.select().from(receipts).orderBy(asc(receipts.year), asc(receipts.seq));
    const year = rows[0]?.year ?? 0;
    expect(rows.every((r) => r.year === year)).toBe(true);
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    expect(rows.map((r) => r.number)).toEqual(rows.map((_, i) => receiptNumber(year, i + 1)));
    const paymentCount = (await db.select().from(payments)).length;
    expect(rows).toHaveLength(paymentCount);
    // each receipt was mailed once (queued under its own key)
    const queued = await db.select().from(mailOutbox);
    for (const r of rows) expect(queued.filter((m) => m.dedupeKey === `receipt:${r.id}`)).toHaveLength(1);
    expect(await db.select().from(receipts).where(eq(receipts.number, "ROLLED-BACK"))).toHaveLength(0);
  });
});
