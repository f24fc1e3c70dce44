import { and, eq, lt } from "drizzle-orm";
import { customerPlans } from "../../db/schema/billing";
import type { ProviderSubscription } from "../../integrations/payments";
import { CHECKOUT_EXPIRY_MS } from "./checkout";
import type { BillingDeps } from "./deps";
import type { CustomerPlanRow } from "./present";
import type { TransitionIntent } from "./state-machine";

/** At most this many periods of one demo subscription are billed in one run (a server off for long). */
const MAX_PERIODS_PER_RUN = 24;

/**
 * What a demo renewal costs: the coupon's price for every payment of a coupon "forever", and for
 * the first paid cycle of a first-payment coupon (after free days, the first paid cycle is a
 * renewal); else the plan's price when the checkout started (a coupon's list price), else the
 * subscription's last price.
 */
function renewalAmount(row: CustomerPlanRow): number | undefined {
  if (row.discountedAmount !== null) {
    if (row.couponDuration === "forever") return row.discountedAmount;
    if (row.couponDuration === "once" && row.lastPaymentAt === null) return row.discountedAmount;
  }
  return row.listAmount ?? undefined;
}

/**
 * The billing service's periodic sweeps, run by its jobs: demo subscriptions billed when their
 * period ends (subscription-sync), and checkouts left pending past the provider's approval window
 * closed, giving back their coupon's use (checkout-sweep).
 */
export function createSweeps(
  deps: Pick<BillingDeps, "db" | "providers" | "log">,
  billing: {
    load: (id: string) => Promise<CustomerPlanRow>;
    sync: (id: string) => Promise<CustomerPlanRow>;
    transition: (
      id: string,
      truth: ProviderSubscription,
      intent?: TransitionIntent,
      now?: Date,
    ) => Promise<CustomerPlanRow>;
  },
) {
  const { db, providers, log } = deps;

  return {
    /**
     * Demo subscriptions whose period ended are billed like PayPal's: one payment per period at
     * its billing time, each applied by the state machine (a payment, its invoice in the one
     * numbered series, VAT of the buyer's country). A period is billed once however many runs race.
     */
    async billDemoRenewals(now: Date): Promise<{ renewed: number; failed: number }> {
      const demo = providers.demo;
      if (!demo) return { renewed: 0, failed: 0 };
      let renewed = 0;
      let failed = 0;
      for (const due of await demo.dueRenewals(now)) {
        try {
          for (let period = 0; period < MAX_PERIODS_PER_RUN; period += 1) {
            const row = await billing.load(due.customerPlanId);
            if (row.status !== "ACTIVE") break;
            if (!(await demo.renew(due.id, now, renewalAmount(row)))) break;
            await billing.sync(row.id);
            renewed += 1;
          }
        } catch (err) {
          failed += 1;
          log.warn({ err, customerPlanId: due.customerPlanId }, "demo renewal failed");
        }
      }
      return { renewed, failed };
    },

    /**
     * Checkouts still pending past the approval window: re-read first (one approved meanwhile
     * starts), else cancelled at the provider and closed here through the state machine, which
     * gives their coupon's use back in the same transaction (the trial's claim is free again).
     */
    async expireCheckouts(now: Date): Promise<{ expired: number; started: number; failed: number }> {
      const stale = await db
        .select({ id: customerPlans.id })
        .from(customerPlans)
        .where(
          and(
            eq(customerPlans.status, "APPROVAL_PENDING"),
            lt(customerPlans.createdAt, new Date(now.getTime() - CHECKOUT_EXPIRY_MS)),
          ),
        );
      let expired = 0;
      let started = 0;
      let failed = 0;
      for (const { id } of stale) {
        try {
          const row = await billing.sync(id);
          if (row.status !== "APPROVAL_PENDING") {
            started += 1;
            continue;
          }
          const provider = providers.byName(row.provider);
          if (provider && row.providerSubscriptionId)
            await provider
              .cancelSubscription(row.providerSubscriptionId, "Checkout abandoned on Parlons")
              .catch((err: unknown) =>
                log.warn({ err, customerPlanId: id }, "could not cancel a stale checkout"),
              );
          const closed = await billing.transition(
            id,
            { id: row.providerSubscriptionId ?? id, status: "CANCELLED", statusUpdateTime: now },
            "sync",
            now,
          );
          if (closed.status === "CANCELLED") expired += 1;
        } catch (err) {
          failed += 1;
          log.warn({ err, customerPlanId: id }, "stale checkout sweep failed");
        }
      }
      return { expired, started, failed };
    },
  };
}
