import type { AuditAction, AuditEntry, AuditListQuery, AuditTargetType } from "@parlons/contract";
import { and, desc, eq, gte, lt, notLike, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../db/client";
import { containing, pageOf } from "../../db/paginate";
import { auditLog } from "../../db/schema/audit";
import type { RequestMeta } from "../../lib/request-meta";

/** Who acted: a signed-in account (its email is kept as it was then). */
interface AuditActor {
  id: string;
  email: string;
}

export interface AuditRecord {
  /** Null for an event without an account behind it (a failed sign-in). */
  actor: AuditActor | null;
  /** The email given when there is no actor (the address typed at a failed sign-in). */
  actorEmail?: string;
  action: AuditAction;
  /** `label`: what staff call the target (a title, a name, an email), kept as it was then. */
  target: { type: AuditTargetType; id?: string | null; label?: string | null };
  before?: unknown;
  after?: unknown;
}

/** Keys never written to the log, at any depth: a hash or a secret has no business in it. */
const SECRET_KEY = /pass(word)?|secret|token|hash/i;
const MAX_TEXT = 512;

/** A JSON copy without secrets (dates as ISO strings); null for undefined. */
function scrub(value: unknown): unknown {
  if (value === undefined) return null;
  return JSON.parse(
    JSON.stringify(value, (key, v) => (key && SECRET_KEY.test(key) ? undefined : v)) ?? "null",
  );
}

const clip = (text: string | null | undefined) => (text ? text.slice(0, MAX_TEXT) : null);

/** The fields that name a target in the snapshots, in order of preference. */
const LABEL_KEYS = ["title_fr", "title", "name_fr", "name", "email", "code", "key"] as const;

/** A name for the target read from a snapshot, for entries written without a label. */
function labelIn(snapshot: unknown): string | null {
  if (!snapshot || typeof snapshot !== "object") return null;
  const record = snapshot as Record<string, unknown>;
  for (const key of LABEL_KEYS) {
    const value = record[key];
    if (typeof value === "string" && value.trim()) return clip(value);
  }
  return null;
}

function present(row: typeof auditLog.$inferSelect): AuditEntry {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    actor_id: row.actorId,
    actor_email: row.actorEmail,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    target_label: row.targetLabel ?? labelIn(row.after) ?? labelIn(row.before),
    before: row.before ?? null,
    after: row.after ?? null,
    ip: row.ip,
    user_agent: row.userAgent,
  };
}

/**
 * The audit log's only writer and reader. `record` runs in the caller's transaction when given
 * one, so an action and its entry commit or roll back together; the IP and user agent come from
 * the request being served (`meta`). Entries are never changed nor deleted: there is no method for
 * it, and the table's trigger refuses it anyway.
 */
export function createAuditService(deps: { db: Db; meta?: () => RequestMeta | undefined }) {
  const { db } = deps;

  return {
    async record(entry: AuditRecord, tx: DbOrTx = db): Promise<void> {
      const meta = deps.meta?.();
      await tx.insert(auditLog).values({
        actorId: entry.actor?.id ?? null,
        actorEmail: clip(entry.actor?.email ?? entry.actorEmail),
        action: entry.action,
        targetType: entry.target.type,
        targetId: clip(entry.target.id),
        targetLabel: clip(entry.target.label) ?? labelIn(entry.after) ?? labelIn(entry.before),
        before: scrub(entry.before),
        after: scrub(entry.after),
        ip: clip(meta?.ip),
        userAgent: clip(meta?.userAgent),
      });
    },

    /** One page, newest first; the filters combine. */
    async list(query: AuditListQuery) {
      const conditions: (SQL | undefined)[] = [];
      if (query.actor) {
        if (z.uuid().safeParse(query.actor).success) conditions.push(eq(auditLog.actorId, query.actor));
        else conditions.push(containing(query.actor, [auditLog.actorEmail]));
      }
      if (query.action) conditions.push(eq(auditLog.action, query.action));
      if (query.target_type) conditions.push(eq(auditLog.targetType, query.target_type));
      if (query.target_id) conditions.push(eq(auditLog.targetId, query.target_id));
      if (query.sign_ins === "hide") conditions.push(notLike(auditLog.action, "auth.%"));
      if (query.from) conditions.push(gte(auditLog.createdAt, new Date(query.from)));
      if (query.to) conditions.push(lt(auditLog.createdAt, new Date(query.to)));
      const where = conditions.length ? and(...conditions) : undefined;
      const { rows, pagination } = await pageOf(db, query, auditLog, where, [
        desc(auditLog.createdAt),
        desc(auditLog.id),
      ]);
      return { entries: rows.map(present), pagination };
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
