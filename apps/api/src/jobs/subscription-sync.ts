import type { Db } from "../db/client";
import type { BillingService } from "../modules/billing/service";
import { claimLease, type Job, type JobOptions, startJob } from "./runner";

const JOB = "subscription-sync";

/** Claims this interval's sync for `holder` (the job's lease; see runner.ts): with N processes, one wins. */
export const claimRun = (
  db: Db,
  intervalSeconds: number,
  holder: string,
  now = new Date(),
): Promise<boolean> => claimLease(db, JOB, intervalSeconds * 1000, holder, now);

/**
 * `runOnce` claims the run, then syncs; false when another process has this interval's run.
 * `stop` clears the timer and waits for a run in progress.
 */
export type SubscriptionSync = Job<boolean>;

/**
 * Re-checks live paid subscriptions with their provider every `intervalSeconds` (started by
 * server.ts): a short first delay, then every interval (at most an hour between tries); the
 * lease keeps N processes to one run per interval.
 */
export function startSubscriptionSync(
  opts: Omit<JobOptions, "intervalMs"> & { db: Db; billing: BillingService; intervalSeconds: number },
): SubscriptionSync {
  const { db, billing, intervalSeconds, ...job } = opts;
  const sync = startJob<Awaited<ReturnType<BillingService["syncDue"]>> | null>({
    ...job,
    name: JOB,
    run: ({ now }) => billing.syncDue(now),
    idle: null,
    report: (result) => ({
      message: "subscriptions synced with the provider",
      ...(result
        ? { fields: result, items: { synced: result.synced, renewed: result.renewed, failed: result.failed } }
        : {}),
    }),
    failed: "subscription sync failed",
    everyMs: Math.min(intervalSeconds, 3600) * 1000,
    firstMs: 30_000,
    lease: { db, everyMs: intervalSeconds * 1000 },
  });
  return { runOnce: async (now) => (await sync.runOnce(now)) !== null, stop: () => sync.stop() };
}
