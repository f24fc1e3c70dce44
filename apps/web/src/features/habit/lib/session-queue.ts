import type { StudySessionBody } from "@parlons/contract";

/** Where a finished session waits when it could not be sent (offline): one list per learner. */
const keyOf = (userId: string) => `habit.sessions.${userId}`;

type Store = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export function pendingSessions(store: Store, userId: string): StudySessionBody[] {
  try {
    const parsed = JSON.parse(store.getItem(keyOf(userId)) ?? "[]");
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** Keeps a session to send later (its id makes a second sending count once). */
export function keepSession(store: Store, userId: string, body: StudySessionBody): void {
  const kept = pendingSessions(store, userId).filter((s) => s.id !== body.id);
  store.setItem(keyOf(userId), JSON.stringify([...kept, body].slice(-50)));
}

/**
 * Sends what waits, in order; a session the server refuses for good is dropped, one that fails
 * for the network stays. Returns how many went.
 */
export async function flushSessions(
  store: Store,
  userId: string,
  send: (body: StudySessionBody) => Promise<"done" | "retry">,
): Promise<number> {
  const waiting = pendingSessions(store, userId);
  let sent = 0;
  const left: StudySessionBody[] = [];
  for (const body of waiting) {
    if (left.length > 0 || (await send(body)) === "retry") left.push(body);
    else sent += 1;
  }
  if (left.length) store.setItem(keyOf(userId), JSON.stringify(left));
  else store.removeItem(keyOf(userId));
  return sent;
}
