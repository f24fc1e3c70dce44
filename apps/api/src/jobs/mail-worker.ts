import type { FastifyBaseLogger } from "fastify";
import type { Mailer } from "../integrations/mail/mailer";
import type { Metrics } from "../lib/metrics";
import type { DeliveryQueue } from "../modules/mail/deliveries";

const JOB = "mail-worker";

export interface MailWorkerResult {
  sent: number;
  retried: number;
  failed: number;
}

export interface MailWorker {
  /** Sends everything due at `now`, batch after batch, until no delivery can be claimed. */
  runOnce(now?: Date): Promise<MailWorkerResult>;
  /** Stops the timer and waits for the batch in progress (its mails finish, none is cut mid-send). */
  stop(): Promise<void>;
}

/**
 * Sends the deliveries of bulk mail campaigns (started by server.ts). Each process runs one; the
 * claim (FOR UPDATE SKIP LOCKED under a lease) lets N processes share the work without sending a
 * delivery twice, and a process that dies leaves leases that expire and are claimed again.
 */
export function startMailWorker(opts: {
  queue: DeliveryQueue;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Deliveries claimed per statement. */
  batchSize?: number;
  /** Longer than a batch of SMTP sends can take: after it, another worker takes the rows over. */
  leaseMs?: number;
  /** Wait before the second try; the third waits four times longer. */
  retryMs?: number;
  intervalMs?: number;
  /** false in tests: no timer, call runOnce. */
  schedule?: boolean;
  /** Counts each delivery's outcome (sent, retry, failed) for /metrics. */
  metrics?: Pick<Metrics, "jobItem">;
}): MailWorker {
  const batchSize = opts.batchSize ?? 10;
  const leaseMs = opts.leaseMs ?? 5 * 60_000;
  const retryMs = opts.retryMs ?? 30_000;
  let stopped = false;

  async function drain(now?: Date): Promise<MailWorkerResult> {
    const result: MailWorkerResult = { sent: 0, retried: 0, failed: 0 };
    while (!stopped) {
      const at = now ?? new Date();
      const batch = await opts.queue.claim(at, { limit: batchSize, leaseMs });
      if (batch.length === 0) break;
      for (const { delivery, mail } of batch) {
        try {
          if (!mail) throw new Error("campaign not found");
          await opts.mailer.send({ to: delivery.email, ...mail });
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          const outcome = await opts.queue.fail(
            delivery,
            message,
            now ?? new Date(),
            retryMs * 4 ** (delivery.attempts - 1),
          );
          if (outcome === "failed") result.failed += 1;
          if (outcome === "retry") result.retried += 1;
          opts.log.warn(
            { err, delivery: delivery.id, attempt: delivery.attempts, outcome },
            "mail delivery failed",
          );
          continue;
        }
        // a crash right here (accepted by SMTP, not yet marked SENT) is the one case that resends: see decisions.md
        if (await opts.queue.complete(delivery, now ?? new Date())) result.sent += 1;
      }
    }
    opts.metrics?.jobItem(JOB, "sent", result.sent);
    opts.metrics?.jobItem(JOB, "retry", result.retried);
    opts.metrics?.jobItem(JOB, "failed", result.failed);
    return result;
  }

  // one run at a time per worker: a call during a run starts when it ends
  let chain: Promise<unknown> = Promise.resolve();
  function runOnce(now?: Date): Promise<MailWorkerResult> {
    const run = chain.then(() => drain(now));
    chain = run.catch(() => undefined);
    return run;
  }

  let timer: NodeJS.Timeout | undefined;
  if (opts.schedule !== false) {
    const tick = () => {
      runOnce()
        .then((r) => {
          if (r.sent || r.failed) opts.log.info({ job: "mail-worker", ...r }, "mail deliveries processed");
        })
        .catch((err: unknown) => opts.log.error({ err, job: "mail-worker" }, "mail worker run failed"))
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
