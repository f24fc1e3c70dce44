import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";

/**
 * Append-only (a trigger refuses UPDATE and DELETE, migration 0010): who did what to which
 * object, with the object before and after, from where. Written only by the audit service
 * (modules/audit/service.ts). The actor's id and email are snapshots, not a foreign key: an entry
 * outlives its actor's account and keeps saying who it was.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    actorId: uuid("actor_id"),
    actorEmail: text("actor_email"),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    /** The target's title, name or email when the entry was written (null in entries before 0043). */
    targetLabel: text("target_label"),
    before: jsonb("before"),
    after: jsonb("after"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [
    // the staff page's order, and each filter's own order
    index("audit_log_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("audit_log_actor_idx").on(t.actorId, t.createdAt.desc()),
    index("audit_log_action_idx").on(t.action, t.createdAt.desc()),
    index("audit_log_target_idx").on(t.targetType, t.targetId, t.createdAt.desc()),
  ],
);
