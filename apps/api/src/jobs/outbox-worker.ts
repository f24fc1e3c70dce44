import type { Mailer } from "../integrations/mail/mailer";
import type { ClaimedOutboxMail, MailOutbox } from "../modules/mail/outbox";
import { type LeaseWorkerOptions, startLeaseWorker } from "./lease-worker";

const JOB = "mail-outbox";

export interface OutboxWorker {
  /** Sends every transactional mail due at `now`; returns how many went out and failed. */
  runOnce(now?: Date): Promise<{ sent: number; failed: number }>;
  /** Stops the timer; the mail being sent finishes, the rest of the batch is given back. */
  stop(): Promise<void>;
}

/** Sends the transactional mails queued in `mail_outbox` (receipts, bookings, reminders); started by server.ts. */
export function startOutboxWorker(
  opts: LeaseWorkerOptions & { outbox: MailOutbox; mailer: Mailer },
): OutboxWorker {
  const { outbox, mailer, ...options } = opts;
  const worker = startLeaseWorker<ClaimedOutboxMail>({
    ...options,
    claim: (now, claim) => outbox.claim(now, claim),
    async send(mail) {
      await mailer.send({
        key: `mail-${mail.id}`,
        to: mail.email,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        ...(mail.attachments.length ? { attachments: mail.attachments } : {}),
        ...(Object.keys(mail.headers).length ? { headers: mail.headers } : {}),
      });
    },
    complete: (mail, now) => outbox.complete(mail, now),
    fail: (mail, error, now, retryInMs) => outbox.fail(mail, error, now, retryInMs),
    release: (rest) => outbox.release(rest),
    claimOf: (mail) => mail,
    item: "mail",
    sendFailed: "transactional mail failed",
    report: (r) => ({ items: { sent: r.sent, failed: r.failed } }),
    job: JOB,
    runFailed: "mail outbox run failed",
  });
  return {
    runOnce: (now) => worker.runOnce(now).then(({ sent, failed }) => ({ sent, failed })),
    stop: () => worker.stop(),
  };
}
