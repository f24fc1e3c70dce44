import { randomUUID } from "node:crypto";
import { z } from "zod";
import { centsToPaypalValue, paypalValueToCents } from "./amount";
import {
  type BuyerExperience,
  buyerExperience,
  dateSchema,
  linkSchema,
  moneySchema,
  type PaypalTransport,
} from "./request";

/** One billing cycle of a plan: every interval at the plan's price, `total` times (0: until cancelled). */
const cycle = (input: CreatePlanInput, tenure: "TRIAL" | "REGULAR", sequence: number, total: number) => ({
  frequency: { interval_unit: input.interval, interval_count: 1 },
  tenure_type: tenure,
  sequence,
  total_cycles: total,
  pricing_scheme: {
    fixed_price: {
      value: centsToPaypalValue(input.amountCents, input.currency),
      currency_code: input.currency,
    },
  },
});

/** Catalog products, billing plans and subscriptions (PayPal Subscriptions v1). */

const PAYPAL_SUBSCRIPTION_STATUSES = [
  "APPROVAL_PENDING",
  "APPROVED",
  "ACTIVE",
  "SUSPENDED",
  "CANCELLED",
  "EXPIRED",
] as const;
type PaypalSubscriptionStatus = (typeof PAYPAL_SUBSCRIPTION_STATUSES)[number];

interface PaypalSubscription {
  id: string;
  status: PaypalSubscriptionStatus;
  planId: string;
  customId?: string;
  statusUpdateTime?: Date;
  startTime?: Date;
  nextBillingTime?: Date;
  lastPayment?: { amountCents: number; currency: string; time: Date };
  failedPaymentsCount?: number;
  subscriber?: { email?: string; payerId?: string };
  /** The subscriber's country: their shipping address's, else their card's billing address's. */
  payerCountry?: string;
}

type PaypalInterval = "MONTH" | "YEAR";

interface CreatePlanInput {
  productId: string;
  name: string;
  description?: string;
  amountCents: number;
  currency: string;
  interval: PaypalInterval;
  /** Free days first: a TRIAL cycle of that many days (no pricing scheme: PayPal's free trial), then the REGULAR one. */
  trialDays?: number;
  /** PayPal's default is ACTIVE; pass CREATED to review the plan before `activatePlan`. */
  status?: "CREATED" | "ACTIVE";
  /**
   * A one-cycle TRIAL at the same price before the REGULAR cycle (after the free days' cycle when
   * there are some): the cycle a subscription's plan override prices for a first payment at
   * another price.
   */
  introCycle?: boolean;
  requestId?: string;
}

interface CreateSubscriptionInput extends BuyerExperience {
  planId: string;
  /** Our reference (the customer plan id); PayPal echoes it in GET and in webhooks. */
  customId: string;
  /** PayPal's plan override: another price for the plan's cycles of these sequences. */
  cyclePrices?: { sequence: number; amountCents: number; currency: string }[];
  requestId?: string;
}

export interface PaypalSubscriptionCalls {
  createProduct(input: {
    name: string;
    description?: string;
    type: "SERVICE";
    category?: string;
    requestId?: string;
  }): Promise<{ id: string }>;
  createPlan(input: CreatePlanInput): Promise<{ id: string; status: string }>;
  activatePlan(id: string): Promise<void>;
  deactivatePlan(id: string): Promise<void>;
  createSubscription(
    input: CreateSubscriptionInput,
  ): Promise<{ id: string; status: PaypalSubscriptionStatus; approveUrl: string }>;
  getSubscription(id: string): Promise<PaypalSubscription>;
  cancelSubscription(id: string, reason: string): Promise<void>;
  suspendSubscription(id: string, reason: string): Promise<void>;
  activateSubscription(id: string, reason: string): Promise<void>;
}

const productSchema = z.object({ id: z.string() });
const planSchema = z.object({ id: z.string(), status: z.string() });
const createdSubscriptionSchema = z.object({
  id: z.string(),
  status: z.enum(PAYPAL_SUBSCRIPTION_STATUSES),
  links: z.array(linkSchema).default([]),
});

const subscriptionSchema = z
  .object({
    id: z.string(),
    status: z.enum(PAYPAL_SUBSCRIPTION_STATUSES),
    plan_id: z.string(),
    custom_id: z.string().optional(),
    status_update_time: dateSchema.optional(),
    start_time: dateSchema.optional(),
    subscriber: z
      .object({
        email_address: z.string().optional(),
        payer_id: z.string().optional(),
        shipping_address: z
          .object({ address: z.object({ country_code: z.string().optional() }).optional() })
          .optional(),
        payment_source: z
          .object({
            card: z
              .object({ billing_address: z.object({ country_code: z.string().optional() }).optional() })
              .optional(),
          })
          .optional(),
      })
      .optional(),
    billing_info: z
      .object({
        next_billing_time: dateSchema.optional(),
        failed_payments_count: z.number().optional(),
        last_payment: z.object({ amount: moneySchema, time: dateSchema }).optional(),
      })
      .optional(),
  })
  .transform((raw): PaypalSubscription => {
    const billing = raw.billing_info;
    const last = billing?.last_payment;
    const country =
      raw.subscriber?.shipping_address?.address?.country_code ??
      raw.subscriber?.payment_source?.card?.billing_address?.country_code;
    return {
      id: raw.id,
      status: raw.status,
      planId: raw.plan_id,
      ...(raw.custom_id !== undefined && { customId: raw.custom_id }),
      ...(raw.status_update_time && { statusUpdateTime: raw.status_update_time }),
      ...(raw.start_time && { startTime: raw.start_time }),
      ...(billing?.next_billing_time && { nextBillingTime: billing.next_billing_time }),
      ...(billing?.failed_payments_count !== undefined && {
        failedPaymentsCount: billing.failed_payments_count,
      }),
      ...(last && {
        lastPayment: {
          amountCents: paypalValueToCents(last.amount.value, last.amount.currency_code),
          currency: last.amount.currency_code,
          time: last.time,
        },
      }),
      ...(raw.subscriber && {
        subscriber: {
          ...(raw.subscriber.email_address !== undefined && { email: raw.subscriber.email_address }),
          ...(raw.subscriber.payer_id !== undefined && { payerId: raw.subscriber.payer_id }),
        },
      }),
      ...(country !== undefined && { payerCountry: country }),
    };
  });

export function subscriptionCalls(paypal: PaypalTransport): PaypalSubscriptionCalls {
  const { call, callExpecting } = paypal;
  const subscriptionPath = (id: string) => `/v1/billing/subscriptions/${encodeURIComponent(id)}`;
  const planPath = (id: string) => `/v1/billing/plans/${encodeURIComponent(id)}`;

  return {
    async createProduct(input) {
      return callExpecting(productSchema, "POST", "/v1/catalogs/products", {
        json: {
          name: input.name,
          type: input.type,
          ...(input.description !== undefined && { description: input.description }),
          ...(input.category !== undefined && { category: input.category }),
        },
        requestId: input.requestId ?? randomUUID(),
      });
    },

    async createPlan(input) {
      const plan = await callExpecting(planSchema, "POST", "/v1/billing/plans", {
        json: {
          product_id: input.productId,
          name: input.name,
          ...(input.description !== undefined && { description: input.description }),
          status: input.status ?? "ACTIVE",
          billing_cycles: [
            ...(input.trialDays
              ? [
                  {
                    frequency: { interval_unit: "DAY", interval_count: input.trialDays },
                    tenure_type: "TRIAL",
                    sequence: 1,
                    total_cycles: 1,
                  },
                ]
              : []),
            // free days first, then the priced intro cycle, then the REGULAR one
            ...(input.introCycle ? [cycle(input, "TRIAL", input.trialDays ? 2 : 1, 1)] : []),
            cycle(input, "REGULAR", 1 + (input.trialDays ? 1 : 0) + (input.introCycle ? 1 : 0), 0),
          ],
          payment_preferences: {
            auto_bill_outstanding: true,
            setup_fee_failure_action: "CANCEL",
            payment_failure_threshold: 3,
          },
        },
        requestId: input.requestId ?? randomUUID(),
      });
      return { id: plan.id, status: plan.status };
    },

    async activatePlan(id) {
      await call("POST", `${planPath(id)}/activate`);
    },

    async deactivatePlan(id) {
      await call("POST", `${planPath(id)}/deactivate`);
    },

    async createSubscription(input) {
      const path = "/v1/billing/subscriptions";
      const created = await callExpecting(createdSubscriptionSchema, "POST", path, {
        json: {
          plan_id: input.planId,
          custom_id: input.customId,
          application_context: buyerExperience(input, "SUBSCRIBE_NOW"),
          ...(input.cyclePrices?.length && {
            plan: {
              billing_cycles: input.cyclePrices.map((c) => ({
                sequence: c.sequence,
                pricing_scheme: {
                  fixed_price: {
                    value: centsToPaypalValue(c.amountCents, c.currency),
                    currency_code: c.currency,
                  },
                },
              })),
            },
          }),
        },
        requestId: input.requestId ?? randomUUID(),
      });
      const approveUrl = paypal.approveLink(created.links, ["approve"], 201, path);
      return { id: created.id, status: created.status, approveUrl };
    },

    async getSubscription(id) {
      return callExpecting(subscriptionSchema, "GET", subscriptionPath(id));
    },

    async cancelSubscription(id, reason) {
      await call("POST", `${subscriptionPath(id)}/cancel`, { json: { reason } });
    },

    async suspendSubscription(id, reason) {
      await call("POST", `${subscriptionPath(id)}/suspend`, { json: { reason } });
    },

    async activateSubscription(id, reason) {
      await call("POST", `${subscriptionPath(id)}/activate`, { json: { reason } });
    },
  };
}
