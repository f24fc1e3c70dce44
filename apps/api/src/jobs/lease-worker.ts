import { type Job, type JobOptions, type JobReport, type JobRun, startJob } from "./runner";

export interface LeaseWorkerResult {
  sent: number;
  retried: number;
  failed: number;
}

/**
 * `runOnce` sends everything due at `now`, batch after batch, until nothing can be claimed;
 * `stop` stops the timer, the item being sent finishes, the rest of the batch is released.
 */
export type LeaseWorker = Job<LeaseWorkerResult>;

/** What server.ts and the tests give a mail worker: its batch, lease and retry, and a job's timer. */
export interface LeaseWorkerOptions extends JobOptions {
  /** Items claimed per statement. */
  batchSize?: number;
  /** Longer than a batch of SMTP sends can take: after it, another worker takes the rows over. */
  leaseMs?: number;
  /** Wait before the second try; the third waits four times longer. */
  retryMs?: number;
}

/**
 * The run shared by the mail workers (campaign deliveries, transactional outbox), a job of
 * `runner.ts`: claim a batch under a lease, send each item, record its outcome (fenced by the
 * claim's attempt), until no item can be claimed; the timer waits `intervalMs` after each run.
 * What is claimed, sent and logged is the caller's: `item` names the log field of the item's id.
 */
export function startLeaseWorker<Item>(
  opts: LeaseWorkerOptions & {
    claim(now: Date, claim: { limit: number; leaseMs: number }): Promise<Item[]>;
    send(item: Item): Promise<void>;
    complete(item: Item, now: Date): Promise<boolean>;
    fail(item: Item, error: string, now: Date, retryInMs: number): Promise<"retry" | "failed" | null>;
    /** Gives back the items of a batch not tried when the worker stops. */
    release(items: Item[]): Promise<void>;
    /** The item's id and the attempt its claim is. */
    claimOf(item: Item): { id: string; attempts: number };
    /** The log field that carries a failed item's id, and the message of that log line. */
    item: string;
    sendFailed: string;
    /** What a run came to: its log line and counts for /metrics. */
    report(result: LeaseWorkerResult): JobReport;
    job: string;
    runFailed: string;
  },
): LeaseWorker {
  const batchSize = opts.batchSize ?? 10;
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const retryMs = opts.retryMs ?? 30_000;

  async function drain({ now, stopping }: JobRun): Promise<LeaseWorkerResult> {
    const result: LeaseWorkerResult = { sent: 0, retried: 0, failed: 0 };
    while (!stopping()) {
      const at = now ?? new Date();
      const batch = await opts.claim(at, { limit: batchSize, leaseMs });
      if (batch.length === 0) break;
      for (const [index, item] of batch.entries()) {
        if (stopping()) {
          await opts.release(batch.slice(index));
          break;
        }
        const { id, attempts } = opts.claimOf(item);
        try {
          await opts.send(item);
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          const outcome = await opts.fail(item, message, now ?? new Date(), retryMs * 4 ** (attempts - 1));
          if (outcome === "failed") result.failed += 1;
          if (outcome === "retry") result.retried += 1;
          opts.log.warn({ err, [opts.item]: id, attempt: attempts, outcome }, opts.sendFailed);
          continue;
        }
        // a crash right here (accepted by SMTP, not yet marked SENT) is the one case that resends: see decisions.md
        if (await opts.complete(item, now ?? new Date())) result.sent += 1;
      }
    }
    return result;
  }

  const { log, intervalMs, schedule, metrics } = opts;
  return startJob({
    name: opts.job,
    log,
    ...(intervalMs !== undefined ? { intervalMs } : {}),
    ...(schedule !== undefined ? { schedule } : {}),
    ...(metrics ? { metrics } : {}),
    run: drain,
    idle: { sent: 0, retried: 0, failed: 0 },
    report: opts.report,
    everyMs: 2000,
    failed: opts.runFailed,
  });
}
