import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/client";
import { jobLeases } from "../db/schema/billing";
import type { Metrics } from "../lib/metrics";
import type { BillingService } from "../modules/billing/service";

const JOB = "subscription-sync";

/**
 * Claims this interval's run for one process: an atomic upsert that moves `last_run_at`
 * forward only if the previous run is at least one interval old. With N processes, one wins.
 * A lease row rather than pg_advisory_lock (session locks break behind PgBouncer's transaction
 * pooling) or a long advisory-locked transaction (PGlite has one connection: it would stall the API).
 */
export async function claimRun(
  db: Db,
  intervalSeconds: number,
  holder: string,
  now = new Date(),
): Promise<boolean> {
  const due = new Date(now.getTime() - intervalSeconds * 1000 + 1000);
  const rows = await db
    .insert(jobLeases)
    .values({ name: JOB, lastRunAt: now, holder })
    .onConflictDoUpdate({
      target: jobLeases.name,
      set: { lastRunAt: now, holder },
      setWhere: sql`${jobLeases.lastRunAt} <= ${due.toISOString()}`,
    })
    .returning({ name: jobLeases.name });
  return rows.length > 0;
}

export interface SubscriptionSync {
  /** One tick: claims the run, then syncs; false when another process has this interval's run. */
  runOnce(now?: Date): Promise<boolean>;
  /** Clears the timers and waits for a run in progress (its lease is a per-interval claim: nothing to give back). */
  stop(): Promise<void>;
}

/** Re-checks live paid subscriptions with their provider every `intervalSeconds` (started by server.ts). */
export function startSubscriptionSync(opts: {
  db: Db;
  billing: BillingService;
  intervalSeconds: number;
  log: FastifyBaseLogger;
  /** false in tests: no timer, call runOnce. */
  schedule?: boolean;
  /** Counts runs (ok, failed, skipped) and subscriptions synced or failed, for /metrics. */
  metrics?: Pick<Metrics, "jobItem" | "jobRun">;
}): SubscriptionSync {
  const holder = randomUUID();
  let running = false;
  let current: Promise<boolean> = Promise.resolve(false);
  function runOnce(now = new Date()): Promise<boolean> {
    if (running) return Promise.resolve(false);
    running = true;
    current = run(now);
    return current;
  }
  async function run(now: Date): Promise<boolean> {
    try {
      if (!(await claimRun(opts.db, opts.intervalSeconds, holder, now))) {
        opts.metrics?.jobRun(JOB, "skipped");
        return false;
      }
      const result = await opts.billing.syncDue(now);
      opts.log.info({ job: JOB, ...result }, "subscriptions synced with the provider");
      opts.metrics?.jobRun(JOB, "ok");
      opts.metrics?.jobItem(JOB, "synced", result.synced);
      opts.metrics?.jobItem(JOB, "failed", result.failed);
      return true;
    } catch (err) {
      opts.log.error({ err, job: JOB }, "subscription sync failed");
      opts.metrics?.jobRun(JOB, "failed");
      return false;
    } finally {
      running = false;
    }
  }
  // a short first delay, then every interval; the lease keeps N processes to one run per interval
  const timers: NodeJS.Timeout[] = [];
  if (opts.schedule !== false) {
    timers.push(setTimeout(() => void runOnce(), 30_000).unref());
    timers.push(setInterval(() => void runOnce(), Math.min(opts.intervalSeconds, 3600) * 1000).unref());
  }
  return {
    runOnce,
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      await current;
    },
  };
}
