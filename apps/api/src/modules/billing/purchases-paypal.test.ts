import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePaypal } from "../../../test/fakes/paypal-server";
import type { TestContext } from "../../../test/helpers/build";
import { courseWithLessons, createOnceOffer } from "../../../test/helpers/learning";
import { deliverWebhook, type PaypalTestApp, paypalTestApp } from "../../../test/helpers/paypal";
import { payments, purchases } from "../../db/schema";

// A course bought once through PayPal Orders v2 (against the fake that speaks it): create, the
// buyer approves on PayPal's page, the return page or a webhook captures, once; staff refund
// through PayPal's refund of the capture.
let app: PaypalTestApp;
let t: TestContext;
let fake: FakePaypal;
let admin: string;
let course: Awaited<ReturnType<typeof courseWithLessons>>;
let offer: string;
beforeAll(async () => {
  app = await paypalTestApp();
  ({ t, fake, admin } = app);
  course = await courseWithLessons(t, admin);
  offer = await createOnceOffer(t, admin, [course.course.id]);
});
afterAll(() => app.close());

async function started() {
  const learner = await t.createUser();
  const res = await t.request({
    method: "POST",
    url: "/api/v1/purchases",
    token: learner.token,
    payload: { plan_id: offer, provider: "paypal" },
  });
  expect(res.statusCode, res.body).toBe(201);
  const { purchase, approveUrl } = res.json().data;
  const [row] = await t.database.db.select().from(purchases).where(eq(purchases.id, purchase.id));
  const orderId = row?.providerOrderId ?? "";
  expect(approveUrl).toBe(`${fake.url}/checkoutnow?token=${orderId}`);
  return { learner, id: purchase.id as string, orderId };
}

const capture = (id: string, token: string) =>
  t.request({ method: "POST", url: `/api/v1/purchases/${id}/capture`, token });
const paymentsOf = (id: string) => t.database.db.select().from(payments).where(eq(payments.purchaseId, id));
async function locked(token: string) {
  const res = await t.request({ method: "GET", url: `/api/v1/courses/${course.course.id}/lessons`, token });
  return res.json().data.lessons.find((l: { id: string }) => l.id === course.paid.id).locked as boolean;
}

describe("buying a course once with PayPal Orders v2", () => {
  it("creates the order, waits for the approval, captures once on return; a replayed capture webhook changes nothing", async () => {
    const { learner, id, orderId } = await started();
    const sent = fake.requests.find((r) => r.method === "POST" && r.path === "/v2/checkout/orders");
    expect(sent?.body).toMatchObject({
      intent: "CAPTURE",
      purchase_units: [{ custom_id: id, amount: { currency_code: "EUR", value: "49.00" } }],
    });
    expect(sent?.headers["paypal-request-id"]).toBe(`parlons-order-${id}`);

    // back before approving (or a forged return): nothing is captured
    const early = await capture(id, learner.token);
    expect(early.json().data.purchase.status).toBe("PENDING");
    expect(await locked(learner.token)).toBe(true);

    fake.approveOrder(orderId, { country: "FR" });
    const paid = await capture(id, learner.token);
    expect(paid.json().data.purchase).toMatchObject({ status: "PAID", receipt: expect.any(Object) });
    expect(await locked(learner.token)).toBe(false);
    const captureId = fake.orders.get(orderId)?.captureId ?? "";
    expect(captureId).toBeTruthy();

    expect((await capture(id, learner.token)).json().data.purchase.status).toBe("PAID");
    const event = fake.signedWebhook({
      event_type: "PAYMENT.CAPTURE.COMPLETED",
      resource: {
        id: captureId,
        status: "COMPLETED",
        supplementary_data: { related_ids: { order_id: orderId } },
      },
    });
    expect((await deliverWebhook(t, event)).statusCode).toBe(200);
    expect((await deliverWebhook(t, event)).json().data.duplicate).toBe(true);
    const rows = await paymentsOf(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ providerPaymentId: captureId, amount: 4900, provider: "paypal" });
    expect(fake.requests.filter((r) => r.path === `/v2/checkout/orders/${orderId}/capture`)).toHaveLength(1);
  });

  it("VAT: the country declared at checkout is cross-checked with the payer's country PayPal reports; PayPal's wins", async () => {
    const settings = (seller: object) =>
      t.request({ method: "POST", url: "/api/v1/settings", token: admin, payload: { seller } });
    expect(
      (await settings({ vat_scheme: "oss", vat_number: "FR12345678901", country: "FR" })).statusCode,
    ).toBe(200);
    const invoiceOf = async (declared: string, payer: string) => {
      const learner = await t.createUser();
      const res = await t.request({
        method: "POST",
        url: "/api/v1/purchases",
        token: learner.token,
        payload: { plan_id: offer, provider: "paypal", country: declared },
      });
      const id = res.json().data.purchase.id;
      const [row] = await t.database.db.select().from(purchases).where(eq(purchases.id, id));
      fake.approveOrder(row?.providerOrderId ?? "", { country: payer });
      const paid = await capture(id, learner.token);
      const [after] = await t.database.db.select().from(purchases).where(eq(purchases.id, id));
      expect(after).toMatchObject({ buyerCountry: declared, paymentCountry: payer });
      const receipt = await t.request({
        method: "GET",
        url: `/api/v1/receipts/${paid.json().data.purchase.receipt.id}`,
        token: learner.token,
      });
      return receipt.json().data.receipt;
    };
    // they agree: Germany's 19 %
    expect(await invoiceOf("DE", "DE")).toMatchObject({
      buyer: { country: "DE" },
      vat: { rate: 1900, amount: 782 },
    });
    // declared Luxembourg (17 %), paid from a Belgian account: Belgium's 21 %
    expect(await invoiceOf("LU", "BE")).toMatchObject({
      buyer: { country: "BE" },
      vat: { rate: 2100, amount: 850 },
    });
    expect((await settings({ vat_scheme: "exempt" })).statusCode).toBe(200);
  });

  it("an approval webhook captures without the return page", async () => {
    const { learner, id, orderId } = await started();
    fake.approveOrder(orderId);
    const event = fake.signedWebhook({
      event_type: "CHECKOUT.ORDER.APPROVED",
      resource: { id: orderId, status: "APPROVED" },
    });
    expect((await deliverWebhook(t, event)).statusCode).toBe(200);
    expect(await paymentsOf(id)).toHaveLength(1);
    expect(await locked(learner.token)).toBe(false);
  });

  it("staff refund through PayPal: the capture is refunded, the course closes, a credit note is issued", async () => {
    const { learner, id, orderId } = await started();
    fake.approveOrder(orderId);
    await capture(id, learner.token);
    const refund = await t.request({ method: "POST", url: `/api/v1/purchases/${id}/refund`, token: admin });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json().data.purchase).toMatchObject({
      status: "REFUNDED",
      credit_note: expect.any(Object),
    });
    const captureId = fake.orders.get(orderId)?.captureId ?? "";
    expect(fake.captures.get(captureId)?.status).toBe("REFUNDED");
    const sent = fake.requests.find((r) => r.path === `/v2/payments/captures/${captureId}/refund`);
    expect(sent?.headers["paypal-request-id"]).toBe(`parlons-refund-${id}`);
    expect(await locked(learner.token)).toBe(true);
  });

  it("a refund PayPal refuses leaves the purchase paid and open (502)", async () => {
    const { learner, id, orderId } = await started();
    fake.approveOrder(orderId);
    await capture(id, learner.token);
    const [row] = await t.database.db.select().from(purchases).where(eq(purchases.id, id));
    await t.database.db
      .update(purchases)
      .set({ providerCaptureId: "UNKNOWN-CAPTURE" })
      .where(eq(purchases.id, id));
    const refused = await t.request({ method: "POST", url: `/api/v1/purchases/${id}/refund`, token: admin });
    expect([refused.statusCode, refused.json().code]).toEqual([502, "PROVIDER_ERROR"]);
    expect(await locked(learner.token)).toBe(false);
    await t.database.db
      .update(purchases)
      .set({ providerCaptureId: row?.providerCaptureId ?? null })
      .where(eq(purchases.id, id));
  });
});
