import { ApiError } from "./api-error";

/**
 * Writes not yet accepted by the server, kept in the browser so that what a learner does offline
 * (or cut off by a closed tab) is sent later. Each item carries the id chosen when it was made, so
 * sending one twice never counts twice: the server ignores a repeat.
 */
export interface OutboxStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/**
 * The outbox of one learner: items kept under their id, so that a learner who signs out with
 * items still queued finds them sent at their next sign-in, and another account signing in on
 * the same browser never sends (and loses) them.
 */
export function learnerStore(store: OutboxStore, userId: string): OutboxStore {
  return {
    getItem: (key) => store.getItem(`${key}:${userId}`),
    setItem: (key, value) => store.setItem(`${key}:${userId}`, value),
  };
}

/** What a send attempt says: accepted (or refused for good), or try again later. */
export type SendOutcome = "done" | "retry";

/**
 * One queued item sent by `send`: accepted, or refused for good (a 4xx other than 401 and 429:
 * nothing to retry), both "done"; anything else (offline, a 5xx, signed out) is tried again later.
 */
export async function sendOnce(send: () => Promise<unknown>): Promise<SendOutcome> {
  try {
    await send();
    return "done";
  } catch (error) {
    return refusedForGood(error) ? "done" : "retry";
  }
}

/** A 4xx other than 401 and 429: the server will refuse the same item again, nothing to retry. */
export function refusedForGood(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 401 &&
    error.status !== 429
  );
}

/** What `createOutbox` makes. */
export type Outbox<T> = ReturnType<typeof createOutbox<T>>;

/** An outbox kept under `key`, its items told apart by `idOf`. */
export function createOutbox<T>(key: string, idOf: (item: T) => string) {
  function pending(store: OutboxStore): T[] {
    try {
      const raw = store.getItem(key);
      const list = raw ? (JSON.parse(raw) as unknown) : [];
      return Array.isArray(list) ? (list as T[]) : [];
    } catch {
      return [];
    }
  }

  function save(store: OutboxStore, list: T[]): void {
    try {
      store.setItem(key, JSON.stringify(list));
    } catch {
      // storage full or disabled: the item is still sent now, only not kept for later
    }
  }

  return {
    pending,
    /** Keeps an item (one with the same id is replaced and goes last). */
    queue(store: OutboxStore, item: T): void {
      save(store, [...pending(store).filter((i) => idOf(i) !== idOf(item)), item]);
    },
    /**
     * Sends the queued items in the order they were made; stops at the first that must wait
     * (offline), keeping it and those after it. Returns how many left the queue.
     */
    async flush(store: OutboxStore, send: (item: T) => Promise<SendOutcome>): Promise<number> {
      let sent = 0;
      for (const item of pending(store)) {
        if ((await send(item)) === "retry") break;
        save(
          store,
          pending(store).filter((i) => idOf(i) !== idOf(item)),
        );
        sent += 1;
      }
      return sent;
    },
  };
}

/**
 * One flush at a time: a call made while one runs does not start a second (which would read
 * the same queue and send its first grade again) but asks for one more pass when it ends, so a
 * grade queued meanwhile still goes out. Every caller waits for the pass that covers its grade.
 */
export function oneAtATime(run: () => Promise<number>): () => Promise<number> {
  let running: Promise<number> | null = null;
  let again = false;
  const loop = async (): Promise<number> => {
    let total = 0;
    try {
      for (;;) {
        again = false;
        total += await run();
        if (!again) return total;
      }
    } finally {
      running = null;
    }
  };
  return () => {
    if (running) {
      again = true;
      return running;
    }
    running = loop();
    return running;
  };
}
