import { createPaypalClient, type PaypalClient, PaypalError } from "../paypal/client";
import { type PaymentProvider, type ProviderOrder, providerError } from "./provider";

export interface PaypalProviderOptions {
  clientId: string;
  clientSecret: string;
  webhookId: string | undefined;
  apiBase: string;
  timeoutMs: number;
  logger?: { warn(obj: object, msg?: string): void };
  /** For tests: a client built elsewhere. */
  client?: PaypalClient;
}

/** PayPal's order statuses in ours: CREATED, SAVED and PAYER_ACTION_REQUIRED all wait for the buyer. */
function orderTruth(order: Awaited<ReturnType<PaypalClient["getOrder"]>>): ProviderOrder {
  const status =
    order.status === "APPROVED" || order.status === "COMPLETED" || order.status === "VOIDED"
      ? order.status
      : "PENDING";
  return {
    id: order.id,
    status,
    ...(order.payerCountry && { payerCountry: order.payerCountry }),
    ...(order.capture && { capture: order.capture }),
  };
}

/** Turns every PayPal failure into our 502 PROVIDER_ERROR; other errors pass through. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PaypalError) {
      throw providerError(
        error.status === 0 ? `PayPal ${error.name}` : `PayPal answered ${error.status} ${error.name}`,
      );
    }
    throw error;
  }
}

/** The PayPal provider: REST subscriptions; the card button is PayPal's card funding of the same subscription. */
export function createPaypalProvider(opts: PaypalProviderOptions): PaymentProvider {
  const client =
    opts.client ??
    createPaypalClient({
      baseUrl: opts.apiBase,
      clientId: opts.clientId,
      clientSecret: opts.clientSecret,
      timeoutMs: opts.timeoutMs,
      ...(opts.logger && { logger: opts.logger }),
    });

  return {
    name: "paypal",

    createBillingPlan(input) {
      return guarded(async () => {
        const productId =
          input.productId ??
          (
            await client.createProduct({
              name: input.name,
              type: "SERVICE",
              category: "EDUCATIONAL_AND_TEXTBOOKS",
              ...(input.description && { description: input.description.slice(0, 256) }),
            })
          ).id;
        const plan = await client.createPlan({
          productId,
          name: input.name,
          ...(input.description && { description: input.description.slice(0, 127) }),
          amountCents: input.amountCents,
          currency: input.currency,
          interval: input.interval === "year" ? "YEAR" : "MONTH",
          ...(input.introCycle && { introCycle: true }),
          ...(input.trialDays && { trialDays: input.trialDays }),
        });
        return { productId, planId: plan.id };
      });
    },

    createSubscription(input) {
      return guarded(async () => {
        if (!input.providerPlanId) throw providerError("the plan has no PayPal plan");
        const created = await client.createSubscription({
          planId: input.providerPlanId,
          customId: input.customerPlanId,
          returnUrl: input.returnUrl,
          cancelUrl: input.cancelUrl,
          locale: input.locale,
          brandName: "Parlons",
          // a coupon: PayPal's plan override prices the first paid cycle (the intro plan's
          // one-cycle TRIAL) or, for every payment, the plan's REGULAR cycle: sequence 1, or 2
          // after the free days' cycle
          ...(input.discount && {
            cyclePrices: [
              {
                sequence: input.trial ? 2 : 1,
                amountCents: input.discount.amountCents,
                currency: input.discount.currency,
              },
            ],
          }),
          // one request id per customer plan: a retried call cannot create a second subscription
          requestId: `parlons-${input.customerPlanId}`,
        });
        return { id: created.id, approveUrl: created.approveUrl };
      });
    },

    getSubscription(id) {
      return guarded(async () => {
        const s = await client.getSubscription(id);
        return {
          id: s.id,
          status: s.status,
          ...(s.startTime && { startTime: s.startTime }),
          ...(s.statusUpdateTime && { statusUpdateTime: s.statusUpdateTime }),
          ...(s.nextBillingTime && { nextBillingTime: s.nextBillingTime }),
          ...(s.lastPayment && { lastPayment: s.lastPayment }),
          ...(s.payerCountry && { payerCountry: s.payerCountry }),
        };
      });
    },

    cancelSubscription(id, reason) {
      return guarded(async () => {
        try {
          await client.cancelSubscription(id, reason.slice(0, 128));
        } catch (error) {
          // already cancelled or expired: the wanted end state holds
          if (
            error instanceof PaypalError &&
            error.status === 422 &&
            error.hasIssue("SUBSCRIPTION_STATUS_INVALID")
          )
            return;
          throw error;
        }
      });
    },

    createOrder(input) {
      return guarded(async () => {
        const created = await client.createOrder({
          amountCents: input.amountCents,
          currency: input.currency,
          customId: input.purchaseId,
          description: input.description,
          returnUrl: input.returnUrl,
          cancelUrl: input.cancelUrl,
          locale: input.locale,
          brandName: "Parlons",
          // one request id per purchase: a retried call cannot create a second order
          requestId: `parlons-order-${input.purchaseId}`,
        });
        return { id: created.id, approveUrl: created.approveUrl };
      });
    },

    getOrder(id) {
      return guarded(async () => orderTruth(await client.getOrder(id)));
    },

    captureOrder(id, purchaseId) {
      return guarded(async () => {
        try {
          // PayPal keeps the answer of a request id: a replayed capture gets the same capture back
          return orderTruth(await client.captureOrder(id, `parlons-capture-${purchaseId}`));
        } catch (error) {
          // not approved yet, or captured by an earlier call: the order as it is
          if (
            error instanceof PaypalError &&
            error.status === 422 &&
            (error.hasIssue("ORDER_NOT_APPROVED") || error.hasIssue("ORDER_ALREADY_CAPTURED"))
          )
            return orderTruth(await client.getOrder(id));
          throw error;
        }
      });
    },

    refundCapture(captureId, purchaseId) {
      return guarded(async () => {
        try {
          await client.refundCapture(captureId, { requestId: `parlons-refund-${purchaseId}` });
        } catch (error) {
          if (
            error instanceof PaypalError &&
            error.status === 422 &&
            error.hasIssue("CAPTURE_FULLY_REFUNDED")
          )
            return;
          throw error;
        }
      });
    },

    verifyWebhook({ headers, body }) {
      const webhookId = opts.webhookId;
      if (!webhookId) return Promise.resolve(false);
      return guarded(() => client.verifyWebhookSignature({ headers, body, webhookId }));
    },
  };
}
