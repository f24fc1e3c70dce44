import { type FakePaypal, startFakePaypal } from "../fakes/paypal-server";
import { buildTestApp, type TestContext } from "./build";

/** A fake PayPal and the environment that points the API at it (short timeout so "PayPal hangs" tests are quick). */
export async function fakePaypalEnv(): Promise<{ fake: FakePaypal; env: Record<string, string> }> {
  const fake = await startFakePaypal();
  return {
    fake,
    env: {
      PAYPAL_CLIENT_ID: fake.clientId,
      PAYPAL_CLIENT_SECRET: fake.clientSecret,
      PAYPAL_WEBHOOK_ID: fake.webhookId,
      PAYPAL_API_BASE: fake.url,
      PAYPAL_TIMEOUT_MS: "400",
    },
  };
}

/** A test app on a fake PayPal, its admin's token and a plan to subscribe to. */
export interface PaypalTestApp {
  t: TestContext;
  fake: FakePaypal;
  admin: string;
  planId: string;
  /** Closes the app, then the fake PayPal. */
  close(): Promise<void>;
}

const PREMIUM = { name: "Premium", name_fr: "Premium", amount: 999, currency: "EUR", interval: "month" };

/** Builds a test app on a fake PayPal (`env` overrides its environment) with a plan (Premium, 9.99 € a month, by default). */
export async function paypalTestApp(
  opts: { env?: Record<string, string>; plan?: object } = {},
): Promise<PaypalTestApp> {
  const paypal = await fakePaypalEnv();
  const t = await buildTestApp({ env: { ...paypal.env, ...opts.env } });
  const admin = await t.adminToken();
  const res = await t.request({
    method: "POST",
    url: "/api/v1/plans",
    token: admin,
    payload: opts.plan ?? PREMIUM,
  });
  if (res.statusCode !== 201) throw new Error(`plan create failed: ${res.statusCode} ${res.body}`);
  return {
    t,
    fake: paypal.fake,
    admin,
    planId: res.json().data.plan.id,
    async close() {
      await t.close();
      await paypal.fake.close();
    },
  };
}

/** Posts a webhook delivery (signed by the fake PayPal) to the API, as PayPal would. */
export function deliverWebhook(
  t: TestContext,
  delivery: { headers: Record<string, string>; rawBody: string },
) {
  return t.request({
    method: "POST",
    url: "/api/v1/billing/webhooks/paypal",
    headers: delivery.headers,
    payload: delivery.rawBody,
  });
}

/**
 * A completed sale of `subscriptionId` delivered twice, as PayPal retries a delivery it thinks
 * failed; both deliveries are answered 200 (the second one is recognised, not recorded again).
 */
export async function deliverSaleTwice(
  t: TestContext,
  fake: FakePaypal,
  sale: { id: string; subscriptionId: string; total: string },
): Promise<number[]> {
  const delivery = fake.signedWebhook({
    event_type: "PAYMENT.SALE.COMPLETED",
    resource: {
      id: sale.id,
      billing_agreement_id: sale.subscriptionId,
      amount: { total: sale.total, currency: "EUR" },
    },
  });
  const first = await deliverWebhook(t, delivery);
  const second = await deliverWebhook(t, delivery);
  return [first.statusCode, second.statusCode];
}
