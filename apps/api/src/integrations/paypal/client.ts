import { z } from "zod";
import { orderCalls, type PaypalOrderCalls } from "./orders";
import { createPaypalTransport, type PaypalClientOptions } from "./request";
import { type PaypalSubscriptionCalls, subscriptionCalls } from "./subscriptions";

export { centsToPaypalValue, paypalValueToCents } from "./amount";
export { PaypalError } from "./request";

/**
 * PayPal REST client (OAuth2 client credentials, catalog products, billing plans,
 * subscriptions, orders, webhook signature verification). Server-side only: it holds the secret.
 * The shared request code is in request.ts, the calls in subscriptions.ts and orders.ts.
 */

export interface PaypalClient extends PaypalSubscriptionCalls, PaypalOrderCalls {
  getAccessToken(): Promise<string>;
  /**
   * Asks PayPal whether a webhook delivery is genuine. `body` is the parsed event as received.
   * False when the headers are missing (PayPal is not called) or PayPal says FAILURE; throws
   * PaypalError when PayPal cannot answer (the caller should answer 5xx so PayPal redelivers).
   */
  verifyWebhookSignature(input: {
    headers: Record<string, string | string[] | undefined>;
    body: unknown;
    webhookId: string;
  }): Promise<boolean>;
}

const verificationSchema = z.object({ verification_status: z.string() });

/** The webhook headers PayPal sends, in the order of the verify call's fields. */
const WEBHOOK_HEADERS = {
  auth_algo: "paypal-auth-algo",
  cert_url: "paypal-cert-url",
  transmission_id: "paypal-transmission-id",
  transmission_sig: "paypal-transmission-sig",
  transmission_time: "paypal-transmission-time",
} as const;

export function createPaypalClient(opts: PaypalClientOptions): PaypalClient {
  const paypal = createPaypalTransport(opts);
  return {
    getAccessToken: paypal.getAccessToken,
    ...subscriptionCalls(paypal),
    ...orderCalls(paypal),

    async verifyWebhookSignature({ headers, body, webhookId }) {
      const lowered = new Map<string, string>();
      for (const [key, value] of Object.entries(headers)) {
        const single = Array.isArray(value) ? value[0] : value;
        if (single) lowered.set(key.toLowerCase(), single);
      }
      const fields: Record<string, string> = {};
      for (const [field, header] of Object.entries(WEBHOOK_HEADERS)) {
        const value = lowered.get(header);
        if (!value) return false;
        fields[field] = value;
      }
      if (!webhookId || typeof body !== "object" || body === null) return false;
      const result = await paypal.callExpecting(
        verificationSchema,
        "POST",
        "/v1/notifications/verify-webhook-signature",
        {
          json: { ...fields, webhook_id: webhookId, webhook_event: body },
        },
      );
      return result.verification_status === "SUCCESS";
    },
  };
}
