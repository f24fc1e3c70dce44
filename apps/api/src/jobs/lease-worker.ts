import type { FastifyBaseLogger } from "fastify";
import type { Metrics } from "../lib/metrics";

export interface LeaseWorkerResult {
  sent: number;
  retried: number;
  failed: number;
}

export interface LeaseWorker {
  /** Sends everything due at `now`, batch after batch, until nothing can be claimed. */
  runOnce(now?: Date): Promise<LeaseWorkerResult>;
  /** Stops the timer; the item being sent finishes, the rest of the batch is released, then it resolves. */
  stop(): Promise<void>;
}

/** What server.ts and the tests give a mail worker: its batch, lease, retry and timer. */
export interface LeaseWorkerOptions {
  log: FastifyBaseLogger;
  /** Items claimed per statement. */
  batchSize?: number;
  /** Longer than a batch of SMTP sends can take: after it, another worker takes the rows over. */
  leaseMs?: number;
  /** Wait before the second try; the third waits four times longer. */
  retryMs?: number;
  intervalMs?: number;
  /** false in tests: no timer, call runOnce. */
  schedule?: boolean;
  /** Counts each item's outcome (sent, failed; retry for campaign deliveries) for /metrics. */
  metrics?: Pick<Metrics, "jobItem">;
}

/**
 * The loop shared by the mail workers (campaign deliveries, transactional outbox): claim a batch
 * under a lease, send each item, record its outcome (fenced by the claim's attempt), until no item
 * can be claimed; one run at a time per worker, on a timer that waits `intervalMs` after each run.
 * What is claimed, sent and logged is the caller's: `item` names the log field of the item's id.
 */
export function startLeaseWorker<Item>(
  opts: Omit<LeaseWorkerOptions, "metrics"> & {
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
    /** After each run, inside it: counts for /metrics. */
    drained(result: LeaseWorkerResult): void;
    /** After each run of the timer that did not throw. */
    ticked?(result: LeaseWorkerResult): void;
    /** The error log of a run of the timer that threw. */
    job: string;
    runFailed: string;
  },
): LeaseWorker {
  const batchSize = opts.batchSize ?? 10;
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const retryMs = opts.retryMs ?? 30_000;
  let stopped = false;

  async function drain(now?: Date): Promise<LeaseWorkerResult> {
    const result: LeaseWorkerResult = { sent: 0, retried: 0, failed: 0 };
    while (!stopped) {
      const at = now ?? new Date();
      const batch = await opts.claim(at, { limit: batchSize, leaseMs });
      if (batch.length === 0) break;
      for (const [index, item] of batch.entries()) {
        if (stopped) {
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
    opts.drained(result);
    return result;
  }

  // one run at a time per worker: a call during a run starts when it ends
  let chain: Promise<unknown> = Promise.resolve();
  function runOnce(now?: Date): Promise<LeaseWorkerResult> {
    const run = chain.then(() => drain(now));
    chain = run.catch(() => undefined);
    return run;
  }

  let timer: NodeJS.Timeout | undefined;
  if (opts.schedule !== false) {
    const tick = () => {
      const run = runOnce();
      (opts.ticked ? run.then(opts.ticked) : run)
        .catch((err: unknown) => opts.log.error({ err, job: opts.job }, opts.runFailed))
        .finally(() => {
          if (!stopped) timer = setTimeout(tick, opts.intervalMs ?? 2000).unref();
        });
    };
    timer = setTimeout(tick, opts.intervalMs ?? 2000).unref();
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
