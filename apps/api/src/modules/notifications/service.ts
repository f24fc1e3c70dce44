import {
  isLocalPath,
  type NotificationData,
  type NotificationItem,
  type NotificationKind,
  type NotificationListQuery,
} from "@parlons/contract";
import { and, count, desc, eq, isNull } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { paginate } from "../../db/paginate";
import { notifications } from "../../db/schema/notifications";
import type { ChangeBus } from "../../lib/change-bus";
import { notFound } from "../../lib/errors";
import type { Principal } from "../users/service";

type NotificationRow = typeof notifications.$inferSelect;

function present(row: NotificationRow): NotificationItem {
  return {
    id: row.id,
    // rows are written only through `notify`, whose kind is typed
    kind: row.kind as NotificationKind,
    data: row.data,
    link: isLocalPath(row.link) ? row.link : null,
    read_at: row.readAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * In-app notifications of the signed-in user. Other modules call `notify` with their transaction,
 * so a change that is rolled back leaves no notification behind. Everyone reads only their own.
 * A user's list is kept in memory (routes.ts) until `notifications:<id>` or a change it names: a
 * notification written inside a transaction is told by its owner after the commit (`events`,
 * `user:<id>`), one written outside is told here, as are read marks.
 */
export function createNotificationService(deps: { db: Db; changes?: ChangeBus }) {
  const { db } = deps;
  const told = (userId: string) => deps.changes?.publish(`notifications:${userId}`);

  return {
    /** Records a notification for `userId`; `link` must be a local path of the app (else dropped). */
    async notify(
      userId: string,
      kind: NotificationKind,
      data: NotificationData,
      link: string | null,
      tx: DbOrTx = db,
    ): Promise<void> {
      await tx.insert(notifications).values({ userId, kind, data, link: isLocalPath(link) ? link : null });
      // inside a transaction, its owner tells after the commit
      if (tx === db) told(userId);
    },

    /** The actor's notifications, newest first, with the number still unread. */
    async list(actor: Principal, query: NotificationListQuery) {
      const mine = eq(notifications.userId, actor.id);
      const unreadOnly = and(mine, isNull(notifications.readAt));
      const where = query.unread === "true" ? unreadOnly : mine;
      const [{ rows, pagination }, [unread]] = await Promise.all([
        paginate(
          query,
          db
            .select()
            .from(notifications)
            .where(where)
            .orderBy(desc(notifications.createdAt), desc(notifications.id))
            .$dynamic(),
          db.select({ n: count() }).from(notifications).where(where),
        ),
        db.select({ n: count() }).from(notifications).where(unreadOnly),
      ]);
      return { notifications: rows.map(present), pagination, unread: unread?.n ?? 0 };
    },

    /** Marks one of the actor's notifications read (a second time keeps the first read time); 404 if not theirs. */
    async markRead(actor: Principal, id: string): Promise<NotificationItem> {
      try {
        return await markOne(actor, id);
      } finally {
        told(actor.id);
      }
    },

    /** Marks every unread notification of the actor read; returns how many changed. */
    async markAllRead(actor: Principal): Promise<{ updated: number }> {
      try {
        const rows = await db
          .update(notifications)
          .set({ readAt: new Date() })
          .where(and(eq(notifications.userId, actor.id), isNull(notifications.readAt)))
          .returning({ id: notifications.id });
        return { updated: rows.length };
      } finally {
        told(actor.id);
      }
    },
  };

  async function markOne(actor: Principal, id: string): Promise<NotificationItem> {
    const [updated] = await db
      .update(notifications)
      .set({ readAt: new Date() })
      .where(and(eq(notifications.id, id), eq(notifications.userId, actor.id), isNull(notifications.readAt)))
      .returning();
    if (updated) return present(updated);
    const [row] = await db
      .select()
      .from(notifications)
      .where(and(eq(notifications.id, id), eq(notifications.userId, actor.id)));
    if (!row) throw notFound("Notification");
    return present(row);
  }
}
export type NotificationService = ReturnType<typeof createNotificationService>;
