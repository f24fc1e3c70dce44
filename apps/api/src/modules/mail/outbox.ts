import { asc } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { mailOutbox, type OutboxAttachment } from "../../db/schema/mail";
import { mailLease } from "./lease";

/** A transactional mail is tried this many times before it is FAILED. */
const MAX_ATTEMPTS = 3;

export interface OutboxMail {
  /** What the mail is about (`receipt:<id>`, `booking:<id>:booked`): queueing it twice is a no-op. */
  key: string;
  userId: string | null;
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: OutboxAttachment[];
  headers?: Record<string, string>;
}

export interface ClaimedOutboxMail {
  id: string;
  email: string;
  subject: string;
  text: string;
  html: string | null;
  attachments: OutboxAttachment[];
  headers: Record<string, string>;
  /** The attempt this claim is: the fence of later updates. */
  attempts: number;
}

/**
 * The transactional mail queue: `enqueue` runs inside the caller's transaction (the mail exists
 * if and only if what it tells was committed); the worker claims rows under a lease with
 * FOR UPDATE SKIP LOCKED, like campaign deliveries, so N processes never send one twice.
 */
export function createMailOutbox(deps: { db: Db }) {
  const { db } = deps;
  const lease = mailLease(db, mailOutbox, MAX_ATTEMPTS);

  return {
    /** Queues a mail in `tx`; false when a mail with this key was queued before. */
    async enqueue(mail: OutboxMail, tx: DbOrTx = db): Promise<boolean> {
      const rows = await tx
        .insert(mailOutbox)
        .values({
          dedupeKey: mail.key,
          userId: mail.userId,
          email: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html ?? null,
          attachments: mail.attachments ?? [],
          headers: mail.headers ?? {},
        })
        .onConflictDoNothing({ target: mailOutbox.dedupeKey })
        .returning({ id: mailOutbox.id });
      return rows.length > 0;
    },

    async claim(now: Date, opts: { limit: number; leaseMs: number }): Promise<ClaimedOutboxMail[]> {
      // a SENDING row whose lease passed on its last attempt: give up on it
      await db.update(mailOutbox).set({ status: "FAILED", lockedUntil: null }).where(lease.exhausted(now));
      return lease.claim(now, opts, [asc(mailOutbox.createdAt)], {
        id: mailOutbox.id,
        email: mailOutbox.email,
        subject: mailOutbox.subject,
        text: mailOutbox.text,
        html: mailOutbox.html,
        attachments: mailOutbox.attachments,
        headers: mailOutbox.headers,
        attempts: mailOutbox.attempts,
      });
    },

    complete: (mail: ClaimedOutboxMail, now: Date): Promise<boolean> => lease.complete(db, mail, now),

    /** Gives back claimed mails not tried (a worker stopping): PENDING again, the attempt uncounted. */
    async release(mails: ClaimedOutboxMail[]): Promise<void> {
      for (const mail of mails) await lease.release(mail);
    },

    fail: (mail: ClaimedOutboxMail, error: string, now: Date, retryInMs: number) =>
      lease.fail(db, mail, error, now, retryInMs),
  };
}

export type MailOutbox = ReturnType<typeof createMailOutbox>;
