import type { Mailer } from "../integrations/mail/mailer";
import type { DeliveryQueue } from "../modules/mail/deliveries";
import { type LeaseWorker, type LeaseWorkerOptions, startLeaseWorker } from "./lease-worker";

const JOB = "mail-worker";

type Claimed = Awaited<ReturnType<DeliveryQueue["claim"]>>[number];

/**
 * Sends everything due at `now`, batch after batch, until no delivery can be claimed; `stop()`
 * stops the timer, the mail being sent finishes (none is cut mid-send), the rest of the batch is
 * released (PENDING again, attempt uncounted) for another process, then it resolves.
 */
export type MailWorker = LeaseWorker;

/**
 * Sends the deliveries of bulk mail campaigns (started by server.ts). Each process runs one; the
 * claim (FOR UPDATE SKIP LOCKED under a lease) lets N processes share the work without sending a
 * delivery twice, and a process that dies leaves leases that expire and are claimed again.
 */
export function startMailWorker(
  opts: LeaseWorkerOptions & { queue: DeliveryQueue; mailer: Mailer },
): MailWorker {
  const { queue, mailer, ...worker } = opts;
  return startLeaseWorker<Claimed>({
    ...worker,
    claim: (now, claim) => queue.claim(now, claim),
    async send({ delivery, mail }) {
      if (!mail) throw new Error("campaign not found");
      // one Message-ID for every attempt: an attempt after a crash that the outbox or SMTP server
      // already got is not a second mail (see docs/decisions.md)
      await mailer.send({ to: delivery.email, ...mail, key: `campaign-${delivery.id}` });
    },
    complete: ({ delivery }, now) => queue.complete(delivery, now),
    fail: ({ delivery }, error, now, retryInMs) => queue.fail(delivery, error, now, retryInMs),
    async release(rest) {
      const released = await queue.release(rest.map((item) => item.delivery));
      opts.log.info({ job: JOB, released }, "mail worker stopping: deliveries released");
    },
    claimOf: ({ delivery }) => delivery,
    item: "delivery",
    sendFailed: "mail delivery failed",
    report: (r) => ({
      ...(r.sent || r.failed ? { message: "mail deliveries processed", fields: { ...r } } : {}),
      items: { sent: r.sent, retry: r.retried, failed: r.failed },
    }),
    job: JOB,
    runFailed: "mail worker run failed",
  });
}
