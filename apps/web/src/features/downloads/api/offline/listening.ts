import type { ListeningBody } from "@parlons/contract";
import { api } from "@/lib/api";
import { ApiError } from "@/lib/api-error";
import type { ListeningRecord, OfflineDb } from "./db";
import type { SendOutcome } from "./outbox";

type Items = ListeningBody["items"];

/** The server refuses minutes older than 30 days: older records are dropped, with a day to spare. */
const MAX_AGE_MS = 29 * 86_400_000;
/** What the API takes in one report. */
const BATCH = 120;

const idOf = (userId: string, lessonId: string, minute: string) => `${userId}|${lessonId}|${minute}`;

/** Keeps seconds the player could not send, each minute raised to the largest value queued. */
export async function queueListening(db: OfflineDb, userId: string, items: Items): Promise<void> {
  if (items.length === 0) return;
  const tx = db.transaction("listening", "readwrite");
  for (const item of items) {
    const minute = new Date(item.minute).toISOString();
    const id = idOf(userId, item.lesson_id, minute);
    const before = await tx.store.get(id);
    if (before && before.seconds >= item.seconds) continue;
    await tx.store.put({ id, userId, lessonId: item.lesson_id, minute, seconds: item.seconds });
  }
  await tx.done;
}

/** The user's queued minutes. */
export async function queuedListening(db: OfflineDb, userId: string): Promise<ListeningRecord[]> {
  return db.getAllFromIndex("listening", "byUser", userId);
}

const running = new Map<string, Promise<number>>();

/**
 * Sends the user's queued minutes in reports of at most 120; a record leaves the queue once the
 * server took it (or refused it for good), unless it was raised meanwhile. Minutes too old for the
 * server are dropped unsent. A network failure stops the run: the rest waits for the next one.
 * Runs for the same user share one pass. Answers how many minutes were sent.
 */
export function flushListening(
  db: OfflineDb,
  userId: string,
  send: (items: Items) => Promise<SendOutcome>,
  now = Date.now(),
): Promise<number> {
  const current = running.get(userId);
  if (current) return current;
  const run = (async () => {
    let sent = 0;
    const records = await queuedListening(db, userId);
    const stale = records.filter((r) => Date.parse(r.minute) < now - MAX_AGE_MS);
    for (const r of stale) await db.delete("listening", r.id);
    const fresh = records.filter((r) => Date.parse(r.minute) >= now - MAX_AGE_MS);
    for (let i = 0; i < fresh.length; i += BATCH) {
      const batch = fresh.slice(i, i + BATCH);
      const outcome = await send(
        batch.map((r) => ({ lesson_id: r.lessonId, minute: r.minute, seconds: r.seconds })),
      );
      if (outcome === "retry") break;
      const tx = db.transaction("listening", "readwrite");
      for (const r of batch) {
        const still = await tx.store.get(r.id);
        if (still && still.seconds <= r.seconds) await tx.store.delete(r.id);
      }
      await tx.done;
      if (outcome === "sent") sent += batch.length;
    }
    return sent;
  })().finally(() => running.delete(userId));
  running.set(userId, run);
  return run;
}

/** `POST /v1/habit/listening`; `keepalive` as the tab closes. Throws the API's error. */
export async function postListening(items: Items, opts: { keepalive?: boolean } = {}): Promise<void> {
  await api("/v1/habit/listening", {
    method: "POST",
    body: { items } satisfies ListeningBody,
    silent: true,
    keepalive: opts.keepalive,
  });
}

/**
 * The queue's sender: a network failure, a 5xx or a session to renew waits for the next run;
 * another 4xx is final.
 */
export async function sendListening(items: Items): Promise<SendOutcome> {
  try {
    await postListening(items);
    return "sent";
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401)
      return "refused";
    return "retry";
  }
}
