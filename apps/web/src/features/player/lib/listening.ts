import type { ListeningBody } from "@parlons/contract";
import { offlineDb } from "@/features/downloads/api/offline/db";
import { postListening, queueListening } from "@/features/downloads/api/offline/listening";
import { getAccessToken } from "@/lib/api";
import { currentUserId } from "@/lib/session";

/**
 * Minutes listened, for the daily habit: while the visit's audio element plays, each second of
 * wall-clock time is added to the bucket of (lesson, minute). Buckets hold what was played in
 * that minute so far and are sent whole every 30 seconds, at each pause, and as the tab is hidden
 * or closed; the server keeps the largest value it got for a bucket, so a resend (a failed call
 * retried, the same lesson in two tabs, the queue sent after a keepalive that did arrive) never
 * counts twice. A bucket stays until the server took its current value; offline, it also goes to
 * the offline queue (IndexedDB), sent at the next online start.
 */
const FLUSH_EVERY_MS = 30_000;
/** A gap longer than this between two time updates is not counted (the tab slept, the device was off). */
const MAX_STEP_MS = 3_000;

interface Bucket {
  lessonId: string;
  minute: number;
  seconds: number;
  sent: number;
}

function keyOf(lessonId: string, minute: number) {
  return `${lessonId}|${minute}`;
}

/** Adds `ms` of playing ending at `now` to the buckets (split across a minute boundary). */
export function addPlayed(
  buckets: Map<string, Bucket>,
  lessonId: string,
  startMs: number,
  endMs: number,
): void {
  let from = startMs;
  while (from < endMs) {
    const minute = Math.floor(from / 60_000) * 60_000;
    const to = Math.min(endMs, minute + 60_000);
    const key = keyOf(lessonId, minute);
    const bucket = buckets.get(key) ?? { lessonId, minute, seconds: 0, sent: 0 };
    bucket.seconds = Math.min(60, bucket.seconds + (to - from) / 1000);
    buckets.set(key, bucket);
    from = to;
  }
}

/** The report of what changed since the last accepted one (whole seconds, at least one). */
export function reportOf(buckets: Map<string, Bucket>): ListeningBody["items"] {
  return [...buckets.values()]
    .filter((b) => Math.floor(b.seconds) >= 1 && Math.floor(b.seconds) > b.sent)
    .slice(0, 120)
    .map((b) => ({
      lesson_id: b.lessonId,
      minute: new Date(b.minute).toISOString(),
      seconds: Math.floor(b.seconds),
    }));
}

/** What the reporter needs from the page: the API, the offline queue, who is signed in, the network. */
export interface ListeningDeps {
  /** `POST /v1/habit/listening` (`keepalive` as the tab closes); throws the API's error. */
  post(items: ListeningBody["items"], opts: { keepalive: boolean }): Promise<void>;
  /** Keeps items in the offline queue (IndexedDB) for the next online start. */
  queue(userId: string, items: ListeningBody["items"]): Promise<void>;
  /** The signed-in learner (null: a visitor, nothing is reported). */
  userId(): string | null;
  online(): boolean;
}

/** A network failure (the API client's status 0): what the offline queue is for. */
const unreachable = (error: unknown) => (error as { status?: unknown } | null)?.status === 0;

/**
 * The buckets of one audio element and how they leave: `flush` every 30 s and at each pause,
 * `leave` as the tab is hidden or closed (a keepalive request that outlives the page; offline,
 * the offline queue). What could not be sent for want of a network goes to the queue too.
 */
export function createListeningReporter(deps: ListeningDeps) {
  const buckets = new Map<string, Bucket>();
  let sending = false;

  const markSent = (items: ListeningBody["items"]) => {
    for (const item of items) {
      const bucket = buckets.get(keyOf(item.lesson_id, Date.parse(item.minute)));
      if (bucket) bucket.sent = Math.max(bucket.sent, item.seconds);
    }
    // minutes done and sent whole are forgotten
    const current = Math.floor(Date.now() / 60_000) * 60_000;
    for (const [key, b] of buckets)
      if (b.minute < current && b.sent >= Math.floor(b.seconds)) buckets.delete(key);
  };

  const keep = async (userId: string, items: ListeningBody["items"]) => {
    try {
      await deps.queue(userId, items);
    } catch {
      // no IndexedDB (private mode): the buckets stay for the next flush of this page
    }
  };

  return {
    buckets,

    /** Sends what grew since the last accepted report; kept in memory (and queued when offline) on failure. */
    async flush(): Promise<void> {
      const userId = deps.userId();
      if (sending || !userId) return;
      const items = reportOf(buckets);
      if (items.length === 0) return;
      sending = true;
      try {
        await deps.post(items, { keepalive: false });
        markSent(items);
      } catch (error) {
        // kept: sent again with the next flush, or from the queue if the tab closes meanwhile
        if (unreachable(error)) await keep(userId, items);
      } finally {
        sending = false;
      }
    },

    /**
     * The tab is hidden or going away: what was not sent leaves now, by a request that outlives
     * the page, or, offline, goes to the queue. A send already under way is not waited for (it
     * dies with the page): a minute sent twice counts once on the server.
     */
    leave(): Promise<void> {
      const userId = deps.userId();
      const items = reportOf(buckets);
      if (!userId || items.length === 0) return Promise.resolve();
      if (!deps.online()) return keep(userId, items);
      return deps.post(items, { keepalive: true }).then(
        () => markSent(items),
        (error: unknown) => (unreachable(error) ? keep(userId, items) : undefined),
      );
    },
  };
}

const tracked = new WeakSet<HTMLAudioElement>();

/** Starts counting what this element plays (once per element). */
export function trackListening(audio: HTMLAudioElement): void {
  if (tracked.has(audio) || typeof window === "undefined") return;
  tracked.add(audio);
  const reporter = createListeningReporter({
    post: (items, opts) => postListening(items, opts),
    queue: async (userId, items) => queueListening(await offlineDb(), userId, items),
    userId: () => (getAccessToken() ? currentUserId() : null),
    online: () => navigator.onLine,
  });
  let last: number | null = null;

  const tick = () => {
    const now = Date.now();
    const lessonId = audio.dataset.lesson;
    if (last !== null && lessonId && !audio.paused && now - last <= MAX_STEP_MS) {
      addPlayed(reporter.buckets, lessonId, last, now);
    }
    last = audio.paused ? null : now;
  };
  const flush = () => {
    tick();
    void reporter.flush();
  };
  const leave = () => {
    tick();
    void reporter.leave();
  };

  audio.addEventListener("play", () => {
    last = Date.now();
  });
  audio.addEventListener("timeupdate", tick);
  audio.addEventListener("pause", flush);
  audio.addEventListener("ended", flush);
  setInterval(flush, FLUSH_EVERY_MS);
  // hidden: a phone may never come back to this tab; pagehide: closing, or leaving the site
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") leave();
  });
  window.addEventListener("pagehide", leave);
}
