import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakePaypal, startFakePaypal } from "../../../test/fakes/paypal-server";
import { createPaypalClient, type PaypalClient, PaypalError } from "./client";

// Orders v2 (create, approve, capture) and Payments v2 (refund a capture), against the fake that
// answers with PayPal's documented shapes and errors.
let fake: FakePaypal;
let paypal: PaypalClient;
beforeAll(async () => {
  fake = await startFakePaypal();
  paypal = createPaypalClient({
    baseUrl: fake.url,
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
  });
});
afterAll(() => fake.close());

const order = (over: Partial<Parameters<PaypalClient["createOrder"]>[0]> = {}) =>
  paypal.createOrder({
    amountCents: 4900,
    currency: "EUR",
    customId: "purchase-1",
    description: "Spanish for beginners",
    returnUrl: "http://parlons.test/billing/purchase?ok",
    cancelUrl: "http://parlons.test/billing/purchase?cancel",
    locale: "fr-FR",
    ...over,
  });

async function caught(promise: Promise<unknown>): Promise<PaypalError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof PaypalError)) throw new Error(`expected a PaypalError, got ${String(error)}`);
  return error;
}

describe("PayPal Orders v2", () => {
  it("creates an order the buyer approves on PayPal's page, then captures it once", async () => {
    const created = await order();
    expect(created.status).toBe("PAYER_ACTION_REQUIRED");
    expect(created.approveUrl).toBe(`${fake.url}/checkoutnow?token=${created.id}`);
    const sent = fake.requests.find((r) => r.method === "POST" && r.path === "/v2/checkout/orders");
    expect(sent?.headers["paypal-request-id"]).toBeTruthy();
    expect(sent?.body).toMatchObject({
      intent: "CAPTURE",
      purchase_units: [{ custom_id: "purchase-1", amount: { currency_code: "EUR", value: "49.00" } }],
      payment_source: { paypal: { experience_context: { user_action: "PAY_NOW" } } },
    });

    const early = await caught(paypal.captureOrder(created.id));
    expect(early.status).toBe(422);
    expect(early.details[0]?.issue).toBe("ORDER_NOT_APPROVED");

    // the buyer's browser: PayPal's page, then back to the return URL with the order id as token
    const back = await fetch(`${fake.url}/checkoutnow/approve?token=${created.id}`, { redirect: "manual" });
    expect(back.status).toBe(302);
    const location = new URL(back.headers.get("location") ?? "");
    expect(location.searchParams.get("token")).toBe(created.id);
    expect(location.searchParams.get("PayerID")).toBeTruthy();
    expect((await paypal.getOrder(created.id)).status).toBe("APPROVED");

    const captured = await paypal.captureOrder(created.id);
    expect(captured).toMatchObject({
      id: created.id,
      status: "COMPLETED",
      customId: "purchase-1",
      payerCountry: "FR",
      capture: { status: "COMPLETED", amountCents: 4900, currency: "EUR" },
    });
    const again = await caught(paypal.captureOrder(created.id));
    expect(again.details[0]?.issue).toBe("ORDER_ALREADY_CAPTURED");
    expect((await paypal.getOrder(created.id)).capture?.id).toBe(captured.capture?.id);
  });

  it("refunds a capture whole, or in part up to what is left", async () => {
    const created = await order({ amountCents: 3000 });
    fake.approveOrder(created.id, { country: "BE" });
    const capture = (await paypal.captureOrder(created.id)).capture;
    if (!capture) throw new Error("no capture");
    const part = await paypal.refundCapture(capture.id, {
      amountCents: 1000,
      currency: "EUR",
      note: "Sorry",
    });
    expect(part.status).toBe("COMPLETED");
    expect(fake.captures.get(capture.id)?.status).toBe("PARTIALLY_REFUNDED");
    const over = await caught(paypal.refundCapture(capture.id, { amountCents: 2500, currency: "EUR" }));
    expect(over.details[0]?.issue).toBe("REFUND_AMOUNT_EXCEEDED");
    await paypal.refundCapture(capture.id, {});
    expect(fake.captures.get(capture.id)?.status).toBe("REFUNDED");
    const twice = await caught(paypal.refundCapture(capture.id, {}));
    expect(twice.status).toBe(422);
    expect(twice.details[0]?.issue).toBe("CAPTURE_FULLY_REFUNDED");
    expect((await caught(paypal.refundCapture("NOPE", {}))).status).toBe(404);
  });

  it("refuses a malformed order like PayPal (400 INVALID_REQUEST)", async () => {
    const bad = await caught(order({ currency: "euro" }));
    expect(bad.status).toBe(400);
    expect(bad.name).toBe("INVALID_REQUEST");
  });
});
