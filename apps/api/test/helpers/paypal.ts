import { type FakePaypal, startFakePaypal } from "../fakes/paypal-server";

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
