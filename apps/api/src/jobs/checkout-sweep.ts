import type { Db } from "../db/client";
import type { PurchaseService } from "../modules/billing/purchases";
import type { BillingService } from "../modules/billing/service";
import { type Job, type JobOptions, startJob } from "./runner";

const QUARTER = 15 * 60_000;

interface SweepResult {
  subscriptions: { expired: number; started: number; failed: number };
  purchases: { expired: number; paid: number; failed: number };
}

/**
 * Closes, every quarter of an hour (started by server.ts), the checkouts left pending past the
 * provider's approval window: subscriptions and courses bought once, each read again first (one
 * approved meanwhile starts or is captured), else closed unpaid with their coupon's use given
 * back. One process of those sharing the database sweeps each interval.
 */
export function startCheckoutSweep(
  opts: JobOptions & {
    db: Db;
    billing: Pick<BillingService, "expireCheckouts">;
    purchases: Pick<PurchaseService, "expireStale">;
  },
): Job<SweepResult | null> {
  const { db, billing, purchases, ...job } = opts;
  return startJob<SweepResult | null>({
    ...job,
    name: "checkout-sweep",
    run: async ({ now }) => ({
      subscriptions: await billing.expireCheckouts(now),
      purchases: await purchases.expireStale(now),
    }),
    idle: null,
    report: (result) => {
      if (!result) return {};
      const expired = result.subscriptions.expired + result.purchases.expired;
      const failed = result.subscriptions.failed + result.purchases.failed;
      return {
        ...(expired || failed ? { message: "stale checkouts closed", fields: result } : {}),
        items: { expired, failed },
      };
    },
    failed: "checkout sweep failed",
    everyMs: QUARTER,
    firstMs: 60_000,
    lease: { db, everyMs: opts.intervalMs ?? QUARTER },
  });
}
