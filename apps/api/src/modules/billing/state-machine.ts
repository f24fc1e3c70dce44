import type { CustomerPlanStatus } from "../../db/schema/billing";
import type { ProviderSubscription } from "../../integrations/payments";

/** Why the provider's truth is being applied: a learner's cancellation keeps the paid period. */
export type TransitionIntent = "sync" | "learner-cancel";

export interface CustomerPlanState {
  status: CustomerPlanStatus;
  startedAt: Date | null;
  lastPaymentAt: Date | null;
  nextBillingAt: Date | null;
  cancelledAt: Date | null;
  accessUntil: Date | null;
  /** The subscription this checkout was started to replace (a change of plan), if any. */
  replacesId: string | null;
  /** Set when this one was cancelled as a learner's second live subscription: the one kept. */
  duplicateOf: string | null;
}

/** What an activation must know of the learner's other subscriptions. */
export interface LearnerPlans {
  /** The learner's ACTIVE subscription other than this one (a unique index allows one), or null. */
  holderId: string | null;
  /** This checkout starts with free days, but the learner's one trial went to another subscription. */
  trialTaken?: boolean;
}

export interface Decision {
  /** The fields to write, or null when nothing changes. */
  patch: Partial<CustomerPlanState> | null;
  /** The subscription became ACTIVE: it becomes the user's plan and replaces their other subscriptions. */
  activated: boolean;
  /** Ours is over but the provider still bills: tell the provider to cancel. */
  cancelAtProvider: boolean;
  /** The provider's last payment: a receipt for the plan held, or marked for refund (a duplicate's). */
  payment: "receipt" | "refund";
}

/** A payment taken by a subscription that was cancelled as a duplicate is refunded, never receipted. */
const paymentOf = (state: Pick<CustomerPlanState, "duplicateOf">): Decision["payment"] =>
  state.duplicateOf ? "refund" : "receipt";

function changes(current: CustomerPlanState, patch: Partial<CustomerPlanState>): boolean {
  return (Object.keys(patch) as (keyof CustomerPlanState)[]).some((key) => {
    const a = patch[key];
    const b = current[key];
    if (a instanceof Date || b instanceof Date) {
      return (a instanceof Date ? a.getTime() : null) !== (b instanceof Date ? b.getTime() : null);
    }
    return a !== b;
  });
}

/**
 * THE billing state machine: given our customer plan and the provider's truth, what ours becomes.
 *
 * - APPROVAL_PENDING/APPROVED at the provider: nothing yet.
 * - ACTIVE: ours ACTIVE, with the provider's start, last payment and next billing times.
 * - SUSPENDED (payments failed): ours SUSPENDED, no access until the provider activates it again.
 * - CANCELLED: ours CANCELLED. When the learner cancelled through us while ACTIVE, access stays
 *   until the end of the paid period (access_until = next billing time); a cancellation that comes
 *   from the provider ends access at once (spec §4: back to the free plan).
 * - EXPIRED: ours EXPIRED, no access.
 * - Ours CANCELLED or EXPIRED is final: if the provider still says ACTIVE/SUSPENDED we cancel there.
 * - One live subscription per learner: an activation while the learner holds another ACTIVE
 *   subscription is a change of plan only if this checkout was started to replace that one; any
 *   other (checkouts started side by side, approved at once or one after another) is a duplicate:
 *   ours CANCELLED at once, cancelled at the provider, its payment marked for refund. The first to
 *   activate is kept, so what the learner already has never changes under them.
 * - One trial per learner, ever: a checkout with free days whose trial claim went to another
 *   subscription meanwhile (it was stale) is cancelled when approved, never activated.
 *
 * Access itself is decided by the entitlement rule (ACTIVE, or CANCELLED/SUSPENDED with access_until
 * in the future); this function only keeps the row in line with the provider.
 */
export function decide(
  current: CustomerPlanState,
  truth: ProviderSubscription,
  intent: TransitionIntent,
  now: Date,
  learner: LearnerPlans = { holderId: null },
): Decision {
  const target = truth.status === "APPROVED" ? "APPROVAL_PENDING" : truth.status;
  if (current.status === "CANCELLED" || current.status === "EXPIRED") {
    return {
      patch: null,
      activated: false,
      cancelAtProvider: target === "ACTIVE" || target === "SUSPENDED",
      payment: paymentOf(current),
    };
  }
  const { holderId } = learner;
  // a second live subscription of the learner (not a change of plan), or a stale checkout
  // approved after its trial went elsewhere (one trial, ever): cancelled, never started
  const duplicateOf = holderId && holderId !== current.replacesId ? holderId : null;
  if (target === "ACTIVE" && current.status !== "ACTIVE" && (duplicateOf || learner.trialTaken)) {
    return {
      patch: {
        status: "CANCELLED",
        cancelledAt: now,
        lastPaymentAt: truth.lastPayment?.time ?? current.lastPaymentAt,
        nextBillingAt: null,
        accessUntil: null,
        ...(duplicateOf && { duplicateOf }),
      },
      activated: false,
      cancelAtProvider: true,
      payment: "refund",
    };
  }

  let patch: Partial<CustomerPlanState> | null = null;
  switch (target) {
    case "APPROVAL_PENDING":
      patch = null;
      break;
    case "ACTIVE":
      patch = {
        status: "ACTIVE",
        startedAt: current.startedAt ?? truth.startTime ?? now,
        lastPaymentAt: truth.lastPayment?.time ?? current.lastPaymentAt,
        nextBillingAt: truth.nextBillingTime ?? current.nextBillingAt,
        cancelledAt: null,
        accessUntil: null,
      };
      break;
    case "SUSPENDED":
      patch = {
        status: "SUSPENDED",
        lastPaymentAt: truth.lastPayment?.time ?? current.lastPaymentAt,
        nextBillingAt: truth.nextBillingTime ?? current.nextBillingAt,
        accessUntil: null,
      };
      break;
    case "CANCELLED": {
      const paidUntil = current.nextBillingAt;
      const keepPaidPeriod =
        intent === "learner-cancel" && current.status === "ACTIVE" && paidUntil !== null && paidUntil > now;
      patch = {
        status: "CANCELLED",
        cancelledAt: truth.statusUpdateTime ?? now,
        lastPaymentAt: truth.lastPayment?.time ?? current.lastPaymentAt,
        nextBillingAt: null,
        accessUntil: keepPaidPeriod ? paidUntil : null,
      };
      break;
    }
    case "EXPIRED":
      patch = { status: "EXPIRED", nextBillingAt: null, accessUntil: null };
      break;
  }

  if (patch && !changes(current, patch)) patch = null;
  return {
    patch,
    activated: patch?.status === "ACTIVE" && current.status !== "ACTIVE",
    cancelAtProvider: false,
    payment: paymentOf(current),
  };
}
