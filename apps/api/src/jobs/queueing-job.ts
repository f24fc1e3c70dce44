import type { FastifyBaseLogger } from "fastify";
import type { Metrics } from "../lib/metrics";

export interface QueueingJob {
  /** One run: queues what is now due; returns how many. */
  runOnce(now?: Date): Promise<number>;
  stop(): Promise<void>;
}

/** What server.ts and the tests give a queueing job: the rest is the job's own. */
export interface QueueingJobOptions {
  log: FastifyBaseLogger;
  /** Between runs: five minutes by default. */
  intervalMs?: number;
  /** false in tests: no timer, call runOnce. */
  schedule?: boolean;
  metrics?: Pick<Metrics, "jobItem" | "jobRun">;
}

/**
 * A job that queues mails every few minutes (event reminders, study reminders): one run at a
 * time per process (a call during a run gets that run's result), its outcome logged and counted.
 * Overlapping runs in several processes are the queueing function's business: each claims what
 * it queues in the transaction that queues it.
 */
export function startQueueingJob(
  opts: QueueingJobOptions & {
    job: string;
    /** What the log line says was queued. */
    what: string;
    /** What happened to the items, in the log line and the metric ("queued" by default). */
    outcome?: string;
    queue: (now?: Date) => Promise<number>;
    firstRunMs: number;
  },
): QueueingJob {
  const { job } = opts;
  const outcome = opts.outcome ?? "queued";
  let current: Promise<number> = Promise.resolve(0);
  let running = false;
  function runOnce(now?: Date): Promise<number> {
    if (running) return current;
    running = true;
    current = opts
      .queue(now)
      .then((queued) => {
        if (queued) opts.log.info({ job, [outcome]: queued }, `${opts.what} ${outcome}`);
        opts.metrics?.jobRun(job, "ok");
        opts.metrics?.jobItem(job, outcome, queued);
        return queued;
      })
      .catch((err: unknown) => {
        opts.log.error({ err, job }, `${opts.what} failed`);
        opts.metrics?.jobRun(job, "failed");
        return 0;
      })
      .finally(() => {
        running = false;
      });
    return current;
  }
  const timers: NodeJS.Timeout[] = [];
  if (opts.schedule !== false) {
    timers.push(setTimeout(() => void runOnce(), opts.firstRunMs).unref());
    timers.push(setInterval(() => void runOnce(), opts.intervalMs ?? 5 * 60_000).unref());
  }
  return {
    runOnce,
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      await current;
    },
  };
}
