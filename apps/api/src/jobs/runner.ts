import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../db/client";
import { jobLeases } from "../db/schema/billing";
import type { Metrics } from "../lib/metrics";

/**
 * Every background job has this shape (started by server.ts, called with `runOnce` in tests):
 * one run at a time per process, on a timer that waits `everyMs` after each run ends, its
 * outcome logged and counted for /metrics, a failed run tried again sooner with backoff, and
 * `stop()` that clears the timer, tells the run in progress to stop between items and waits
 * for it. With `lease`, the processes sharing the database run it once per interval between
 * them (a row of `job_leases`); without, each process runs it and the work is claimed item by
 * item (mail rows under a lease, reminders by a conditional write).
 */
export interface Job<Result> {
  /** One run now; a call during a run waits for it to end, then runs. */
  runOnce(now?: Date): Promise<Result>;
  /** Clears the timer; the run in progress stops between items and is waited for. */
  stop(): Promise<void>;
}

export interface JobRun {
  /** The time the run acts at (tests pass it; the timer's runs leave it undefined: the clock's). */
  now: Date | undefined;
  /** True once `stop()` was called: a run that loops over items stops before the next. */
  stopping(): boolean;
}

/** What a job's items came to, for its log line and /metrics (`jobItem` per outcome). */
export interface JobReport {
  /** The log line of a run that did something; no line when absent. */
  message?: string;
  fields?: Record<string, unknown>;
  items?: Record<string, number>;
}

/** What server.ts and the tests give any job: the rest is the job's own. */
export interface JobOptions {
  log: FastifyBaseLogger;
  /** Between runs (from the end of one to the start of the next). */
  intervalMs?: number;
  /** false in tests: no timer, call runOnce. */
  schedule?: boolean;
  metrics?: Pick<Metrics, "jobItem" | "jobRun">;
}

export interface JobDefinition<Result> extends JobOptions {
  /** Its name in the logs, /metrics and `job_leases`. */
  name: string;
  run(run: JobRun): Promise<Result>;
  /** The result of a run that did not happen: its lease was taken elsewhere, or it failed. */
  idle: Result;
  report?(result: Result): JobReport;
  /** The default of `intervalMs`. */
  everyMs: number;
  /** The first run of the timer comes after this (default: one interval). */
  firstMs?: number;
  /** After a failed run the timer tries again after this, four times longer each failure in a row, at most one interval. */
  retryMs?: number;
  /** One run per `everyMs` among the processes sharing `db`. */
  lease?: { db: Db; everyMs: number };
  /** The error log line of a failed run (default "<name> failed"). */
  failed?: string;
}

/**
 * Claims this interval's run of `name` for `holder`: an atomic upsert that moves `last_run_at`
 * forward only if the previous run is at least one interval old. With N processes, one wins.
 * A lease row rather than pg_advisory_lock (session locks break behind PgBouncer's transaction
 * pooling) or a long advisory-locked transaction (PGlite has one connection: it would stall the API).
 */
export async function claimLease(
  db: Db,
  name: string,
  everyMs: number,
  holder: string,
  now = new Date(),
): Promise<boolean> {
  const due = new Date(now.getTime() - everyMs + 1000);
  const rows = await db
    .insert(jobLeases)
    .values({ name, lastRunAt: now, holder })
    .onConflictDoUpdate({
      target: jobLeases.name,
      set: { lastRunAt: now, holder },
      setWhere: sql`${jobLeases.lastRunAt} <= ${due.toISOString()}`,
    })
    .returning({ name: jobLeases.name });
  return rows.length > 0;
}

/** Gives a failed run's claim back, so that the next try (here or elsewhere) is not skipped. */
async function releaseLease(db: Db, name: string, holder: string, claimedAt: Date): Promise<void> {
  await db
    .update(jobLeases)
    .set({ lastRunAt: new Date(0) })
    .where(and(eq(jobLeases.name, name), eq(jobLeases.holder, holder), eq(jobLeases.lastRunAt, claimedAt)));
}

export function startJob<Result>(job: JobDefinition<Result>): Job<Result> {
  const { name, log, metrics } = job;
  const everyMs = job.intervalMs ?? job.everyMs;
  const retryMs = job.retryMs ?? 30_000;
  const holder = randomUUID();
  let stopped = false;
  let failuresInARow = 0;
  const context = (now: Date | undefined): JobRun => ({ now, stopping: () => stopped });

  async function attempt(now: Date | undefined): Promise<Result> {
    const at = now ?? new Date();
    try {
      if (job.lease && !(await claimLease(job.lease.db, name, job.lease.everyMs, holder, at))) {
        metrics?.jobRun(name, "skipped");
        return job.idle;
      }
      const result = await job.run(context(now));
      const report = job.report?.(result);
      for (const [outcome, n] of Object.entries(report?.items ?? {})) metrics?.jobItem(name, outcome, n);
      if (report?.message) log.info({ job: name, ...report.fields }, report.message);
      metrics?.jobRun(name, "ok");
      failuresInARow = 0;
      return result;
    } catch (err) {
      failuresInARow += 1;
      log.error({ err, job: name, failuresInARow }, job.failed ?? `${name} failed`);
      metrics?.jobRun(name, "failed");
      if (job.lease) await releaseLease(job.lease.db, name, holder, at).catch(() => undefined);
      return job.idle;
    }
  }

  // one run at a time per process: a call during a run starts when it ends
  let chain: Promise<unknown> = Promise.resolve();
  function runOnce(now?: Date): Promise<Result> {
    const run = chain.then(() => attempt(now));
    chain = run.catch(() => undefined);
    return run;
  }

  let timer: NodeJS.Timeout | undefined;
  const next = () => (failuresInARow ? Math.min(everyMs, retryMs * 4 ** (failuresInARow - 1)) : everyMs);
  if (job.schedule !== false) {
    const tick = () => {
      void runOnce().finally(() => {
        if (!stopped) timer = setTimeout(tick, next()).unref();
      });
    };
    timer = setTimeout(tick, job.firstMs ?? everyMs).unref();
  }

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await chain;
    },
  };
}
