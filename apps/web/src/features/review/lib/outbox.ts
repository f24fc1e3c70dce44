import type { ReviewGradeBody } from "@parlons/contract";

/**
 * Grades not yet accepted by the server, kept in the browser so that a review made offline
 * (or cut off by a closed tab) is sent later. Each grade carries the review id chosen when it
 * was made, so sending one twice never grades twice: the server ignores a repeat.
 */
export interface OutboxStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const KEY = "parlons.reviewOutbox";

/**
 * The outbox of one learner: grades kept under their id, so that a learner who signs out with
 * grades still queued finds them sent at their next sign-in, and another account signing in on
 * the same browser never sends (and loses) them.
 */
export function learnerStore(store: OutboxStore, userId: string): OutboxStore {
  return {
    getItem: (key) => store.getItem(`${key}:${userId}`),
    setItem: (key, value) => store.setItem(`${key}:${userId}`, value),
  };
}

export function pendingGrades(store: OutboxStore): ReviewGradeBody[] {
  try {
    const raw = store.getItem(KEY);
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list) ? (list as ReviewGradeBody[]) : [];
  } catch {
    return [];
  }
}

function save(store: OutboxStore, list: ReviewGradeBody[]): void {
  try {
    store.setItem(KEY, JSON.stringify(list));
  } catch {
    // storage full or disabled: the grade is still sent now, only not kept for later
  }
}

export function queueGrade(store: OutboxStore, grade: ReviewGradeBody): void {
  save(store, [...pendingGrades(store).filter((g) => g.review_id !== grade.review_id), grade]);
}

/** What a send attempt says: accepted (or refused for good), or try again later. */
export type SendOutcome = "done" | "retry";

/**
 * Sends the queued grades in the order they were made; stops at the first that must wait
 * (offline), keeping it and those after it. Returns how many left the queue.
 */
export async function flushGrades(
  store: OutboxStore,
  send: (grade: ReviewGradeBody) => Promise<SendOutcome>,
): Promise<number> {
  let sent = 0;
  for (const grade of pendingGrades(store)) {
    if ((await send(grade)) === "retry") break;
    save(
      store,
      pendingGrades(store).filter((g) => g.review_id !== grade.review_id),
    );
    sent += 1;
  }
  return sent;
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
