import type { OfflineDb, OutboxEntry } from "./db";

/** What became of one entry sent: applied (or already applied), refused for good, or to try later. */
export type SendOutcome = "sent" | "refused" | "retry";

/** Puts progress in the queue (the idempotency key is the one its first attempt carried). */
export async function enqueue(db: OfflineDb, entry: Omit<OutboxEntry, "seq" | "createdAt">): Promise<void> {
  await db.add("outbox", { ...entry, createdAt: Date.now() });
}

/** Entries waiting for this user, oldest first. */
export async function pending(db: OfflineDb, userId: string): Promise<OutboxEntry[]> {
  return (await db.getAll("outbox")).filter((e) => e.userId === userId);
}

const running = new Map<string, Promise<number>>();

/**
 * Sends the user's queued entries in the order they were made, one at a time; an entry leaves the
 * queue only once the server answered it (applied, or refused with a 4xx that no retry would
 * change). The first network failure stops the run: the rest waits for the next one. Runs for the
 * same user share one pass (two triggers never send an entry twice); a retry of an entry the
 * server did apply (its answer was lost) carries the same Idempotency-Key and is not applied
 * again. Answers how many entries were sent.
 */
export function flushOutbox(
  db: OfflineDb,
  userId: string,
  send: (entry: OutboxEntry) => Promise<SendOutcome>,
): Promise<number> {
  const current = running.get(userId);
  if (current) return current;
  const run = (async () => {
    let sent = 0;
    for (const entry of await pending(db, userId)) {
      const outcome = await send(entry);
      if (outcome === "retry") break;
      await db.delete("outbox", entry.seq as number);
      if (outcome === "sent") sent += 1;
    }
    return sent;
  })().finally(() => running.delete(userId));
  running.set(userId, run);
  return run;
}
