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
}

interface BillingPlanInput {
  name: string;
  description: string;
  amountCents: number;
  currency: string;
  interval: "month" | "year";
  /** The provider's product of this plan when one was created before (a new price reuses it). */
  productId: string | null;
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
}

export interface PaymentProvider {
  readonly name: "paypal" | "demo";
  /** Creates the provider's product (first time) and billing plan; null when the provider needs none. */
  createBillingPlan(input: BillingPlanInput): Promise<{ productId: string; planId: string } | null>;
  createSubscription(input: StartSubscriptionInput): Promise<{ id: string; approveUrl: string }>;
  getSubscription(id: string): Promise<ProviderSubscription>;
  /** Idempotent: cancelling a subscription that is already over is not an error. */
  cancelSubscription(id: string, reason: string): Promise<void>;
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
