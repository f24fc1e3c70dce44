import type { DeviceSession } from "@parlons/contract";
import { and, desc, eq, gt, isNull, ne } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sessions } from "../../db/schema/auth";
import type { ChangeBus } from "../../lib/change-bus";
import { notFound } from "../../lib/errors";
import { addressPrefix, deviceOf } from "./device";

/** A learner has a handful of live sessions; a list longer than this shows the latest. */
const LISTED = 100;

/**
 * "Where you are signed in": the caller's live sessions, and ending one or all the others. An
 * ended session is told to every process at once (`session:<id>` on the change bus), so its
 * access tokens are refused from the next request on (principal-cache.ts), not at their expiry.
 */
export function createDeviceSessions(deps: { db: Db; changes?: ChangeBus; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  const live = (userId: string) =>
    and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now()));
  const announce = (ids: string[]) => {
    for (const id of ids) deps.changes?.publish(`session:${id}`);
  };

  return {
    async list(userId: string, currentId: string): Promise<DeviceSession[]> {
      const rows = await db
        .select()
        .from(sessions)
        .where(live(userId))
        .orderBy(desc(sessions.lastSeenAt))
        .limit(LISTED);
      const items = rows.map((row) => ({
        id: row.id,
        ...deviceOf(row.userAgent),
        address: addressPrefix(row.ip),
        createdAt: row.createdAt.toISOString(),
        lastSeenAt: row.lastSeenAt.toISOString(),
        current: row.id === currentId,
      }));
      // the caller's own session first
      return [...items.filter((s) => s.current), ...items.filter((s) => !s.current)];
    },

    /** Ends one live session of the user; 404 when it is not theirs or already over. */
    async end(userId: string, sessionId: string): Promise<void> {
      const ended = await db
        .update(sessions)
        .set({ revokedAt: now(), revokedReason: "ended_by_user" })
        .where(and(eq(sessions.id, sessionId), live(userId)))
        .returning({ id: sessions.id });
      if (ended.length === 0) throw notFound("Session");
      announce(ended.map((s) => s.id));
    },

    /** Ends every live session of the user but the caller's; how many ended. */
    async endOthers(userId: string, currentId: string): Promise<number> {
      const ended = await db
        .update(sessions)
        .set({ revokedAt: now(), revokedReason: "ended_by_user" })
        .where(and(live(userId), ne(sessions.id, currentId)))
        .returning({ id: sessions.id });
      announce(ended.map((s) => s.id));
      return ended.length;
    },
  };
}
