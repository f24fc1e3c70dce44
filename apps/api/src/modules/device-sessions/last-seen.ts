import { and, eq, lt } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client";
import { sessions } from "../../db/schema/auth";

/** A session's "last seen" is written at most this often: a request costs nothing more meanwhile. */
const LAST_SEEN_EVERY_MS = 5 * 60_000;

/**
 * When each session was last used (a refresh or a signed-in request), for "where you are signed
 * in". Memory remembers when this process last wrote it, so a request within `everyMs` of that
 * writes nothing; the write itself is conditional, so several processes write it once per period
 * between them, and it runs after the answer (its failure is only logged).
 */
export function createLastSeen(deps: {
  db: Db;
  log?: FastifyBaseLogger;
  everyMs?: number;
  now?: () => number;
  maxEntries?: number;
}) {
  const everyMs = deps.everyMs ?? LAST_SEEN_EVERY_MS;
  const now = deps.now ?? Date.now;
  const maxEntries = deps.maxEntries ?? 20_000;
  /** Session id → when this process last wrote (or found) its last seen time. */
  const written = new Map<string, number>();
  const pending = new Set<Promise<void>>();

  async function write(sessionId: string, at: number) {
    await deps.db
      .update(sessions)
      .set({ lastSeenAt: new Date(at) })
      .where(and(eq(sessions.id, sessionId), lt(sessions.lastSeenAt, new Date(at - everyMs))));
  }

  return {
    /** Notes a use of the session; writes it when the last write is older than `everyMs`. */
    touch(sessionId: string): void {
      const t = now();
      const last = written.get(sessionId);
      if (last !== undefined && t - last < everyMs) return;
      if (written.size >= maxEntries) written.clear();
      written.set(sessionId, t);
      const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => write(sessionId, t))
        .catch((err: unknown) => deps.log?.warn({ err }, "last seen time not written"))
        .finally(() => pending.delete(done));
      pending.add(done);
    },

    /** Resolves once the writes started are done (tests). */
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all(pending);
    },
  };
}
