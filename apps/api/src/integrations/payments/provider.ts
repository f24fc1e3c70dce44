import { AppError } from "../../lib/errors";

/** The provider's view of a subscription: the only truth the billing state machine follows. */
type ProviderSubscriptionStatus =
  | "APPROVAL_PENDING"
  | "APPROVED"
  | "ACTIVE"
  | "SUSPENDED"
  | "CANCELLED"
  | "EXPIRED";

export interface ProviderSubscription {
  id: string;
  status: ProviderSubscriptionStatus;
  startTime?: Date;
  statusUpdateTime?: Date;
  nextBillingTime?: Date;
  lastPayment?: { amountCents: number; currency: string; time: Date };
  /** The payer's country (ISO 3166-1 alpha-2) when the provider knows it: cross-checks the one declared for VAT. */
  payerCountry?: string;
}

interface BillingPlanInput {
  name: string;
  description: string;
  amountCents: number;
  currency: string;
  interval: "month" | "year";
  /** The provider's product of this plan when one was created before (a new price reuses it). */
  productId: string | null;
  /** A first cycle of its own (PayPal: a one-cycle TRIAL at the same price), for a first payment at another price. */
  introCycle?: boolean;
  /** Free days before the first payment (PayPal: a TRIAL billing cycle of that many days). */
  trialDays?: number;
}

interface StartSubscriptionInput {
  /** Our customer plan id: PayPal echoes it as custom_id. */
  customerPlanId: string;
  /** The provider's billing plan (PayPal), null for providers without one. */
  providerPlanId: string | null;
  returnUrl: string;
  cancelUrl: string;
  /** BCP 47 with region, e.g. fr-FR. */
  locale: string;
  /**
   * A coupon's price: for the first payment only ("once": `providerPlanId` is then the plan's
   * intro plan, whose first cycle is priced) or for every payment ("forever").
   */
  discount?: { amountCents: number; currency: string; duration: "once" | "forever" };
  /** `providerPlanId` starts with free days (PayPal: a free TRIAL cycle, sequence 1, before the REGULAR one). */
  trial?: boolean;
}

/** The provider's view of an order (a one-off payment): the only truth a purchase follows. */
export interface ProviderOrder {
  id: string;
  /** PENDING: waiting for the buyer; APPROVED: may be captured; COMPLETED: captured; VOIDED: never will be. */
  status: "PENDING" | "APPROVED" | "COMPLETED" | "VOIDED";
  /** The capture once there is one; its status is the provider's (COMPLETED: the money is taken). */
  capture?: { id: string; status: string; amountCents: number; currency: string };
  /** The payer's country (ISO 3166-1 alpha-2) when the provider knows it: cross-checks the one declared for VAT. */
  payerCountry?: string;
}

interface CreateOrderInput {
  /** Our purchase id: the provider echoes it, and it keys the provider's idempotency. */
  purchaseId: string;
  amountCents: number;
  currency: string;
  description: string;
  returnUrl: string;
  cancelUrl: string;
  locale: string;
}

export interface PaymentProvider {
  readonly name: "paypal" | "demo";
  /** Creates the provider's product (first time) and billing plan; null when the provider needs none. */
  createBillingPlan(input: BillingPlanInput): Promise<{ productId: string; planId: string } | null>;
  createSubscription(input: StartSubscriptionInput): Promise<{ id: string; approveUrl: string }>;
  getSubscription(id: string): Promise<ProviderSubscription>;
  /** Idempotent: cancelling a subscription that is already over is not an error. */
  cancelSubscription(id: string, reason: string): Promise<void>;
  /** Orders: one payment the buyer approves, then we capture (PayPal Orders v2). */
  createOrder(input: CreateOrderInput): Promise<{ id: string; approveUrl: string }>;
  getOrder(id: string): Promise<ProviderOrder>;
  /**
   * Captures an approved order. Idempotent: an order already captured answers with its capture,
   * an order not approved yet answers as it is (PENDING), never an error.
   */
  captureOrder(id: string, purchaseId: string): Promise<ProviderOrder>;
  /** Refunds a capture whole. Idempotent: a capture already refunded is not an error. */
  refundCapture(captureId: string, purchaseId: string): Promise<void>;
  /** Whether a webhook delivery is genuine (asked to the provider); false when the provider has no webhooks. */
  verifyWebhook(input: {
    headers: Record<string, string | string[] | undefined>;
    body: unknown;
  }): Promise<boolean>;
}

/** The provider failed to answer (down, timeout, unexpected answer): 502, so the client can say "try again". */
export function providerError(detail: string): AppError {
  return new AppError(
    502,
    "PROVIDER_ERROR",
    `The payment provider could not complete the request (${detail}); nothing was changed, try again later`,
  );
}
