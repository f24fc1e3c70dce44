import { and, eq, gte, inArray, isNull, lt, lte, or, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable, PgUpdateSetSource, SelectedFieldsFlat } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "../../db/client";

/** PENDING (waiting, retries included) or SENDING (claimed under a lease): what is left to do. */
export const WORK_LEFT = ["PENDING", "SENDING"] as const;

/** A claimed row as its claim left it: the attempt is the fencing token of every later update. */
interface Claim {
  id: string;
  attempts: number;
}

/** A table of mails sent under a lease (campaign deliveries, the transactional outbox). */
type LeasedTable = PgTable & {
  id: PgColumn;
  status: PgColumn;
  attempts: PgColumn;
  lockedUntil: PgColumn;
  lastError: PgColumn;
  sentAt: PgColumn;
};

/**
 * The claim and lease of a mail table: `claim` takes up to `limit` rows that are PENDING and due,
 * or SENDING with an expired lease, with tries left, marks them SENDING under a lease and counts
 * the attempt; every update after it is fenced by (status SENDING, attempts), so a worker whose
 * lease expired and whose row was claimed again cannot overwrite the newer claim. What a table
 * does besides (campaign counts, unsubscribes) stays with its module.
 */
export function mailLease<T extends LeasedTable>(db: Db, table: T, maxAttempts: number) {
  const set = (values: Record<string, unknown>) => values as PgUpdateSetSource<T>;

  /** The row as this claim left it: SENDING, at this attempt (the fence of every later update). */
  const stillClaimed = (claim: Claim) =>
    and(eq(table.id, claim.id), eq(table.status, "SENDING"), eq(table.attempts, claim.attempts));

  /** Work that may be taken now: PENDING and due, or SENDING with an expired lease, tries left. */
  const claimable = (now: Date) =>
    and(
      inArray(table.status, WORK_LEFT),
      or(isNull(table.lockedUntil), lte(table.lockedUntil, now)),
      lt(table.attempts, maxAttempts),
    );

  return {
    stillClaimed,

    /** SENDING rows whose lease passed on their last attempt: the worker died each time. */
    exhausted: (now: Date) =>
      and(eq(table.status, "SENDING"), lte(table.lockedUntil, now), gte(table.attempts, maxAttempts)),

    /**
     * Claims up to `limit` rows in one statement, taken in `order`: the sub-select locks rows with
     * FOR UPDATE SKIP LOCKED (rows another worker is claiming are skipped, not waited for), the
     * UPDATE marks them SENDING under a lease and counts the attempt; returns `fields` of each.
     */
    claim<S extends SelectedFieldsFlat>(
      now: Date,
      opts: { limit: number; leaseMs: number },
      order: (PgColumn | SQL)[],
      fields: S,
    ) {
      const candidates = db
        .select({ id: table.id })
        .from(table as PgTable)
        .where(claimable(now))
        .orderBy(...order)
        .limit(opts.limit)
        .for("update", { skipLocked: true });
      return (
        db
          .update(table)
          .set(
            set({
              status: "SENDING",
              attempts: sql`${table.attempts} + 1`,
              lockedUntil: new Date(now.getTime() + opts.leaseMs),
            }),
          )
          // = any(array(…)), not in (…): the array is an init plan run once, while a nested loop may
          // rescan an IN sub-select, and each rescan would lock (and claim) `limit` more rows
          .where(and(sql`${table.id} = any(array(${candidates}))`, claimable(now)))
          .returning(fields)
      );
    },

    /** Records a send the SMTP server accepted; false when this claim was superseded. */
    async complete(tx: DbOrTx, claim: Claim, now: Date): Promise<boolean> {
      const rows = await tx
        .update(table)
        .set(set({ status: "SENT", sentAt: now, lockedUntil: null, lastError: null }))
        .where(stillClaimed(claim))
        .returning({ id: table.id });
      return rows.length > 0;
    },

    /** Gives back a row claimed but not tried: PENDING, lease cleared, the attempt uncounted; false when superseded. */
    async release(claim: Claim): Promise<boolean> {
      const rows = await db
        .update(table)
        .set(set({ status: "PENDING", lockedUntil: null, attempts: sql`${table.attempts} - 1` }))
        .where(stillClaimed(claim))
        .returning({ id: table.id });
      return rows.length > 0;
    },

    /** Records a failed try: PENDING again after `retryInMs`, or FAILED on the last attempt; null when superseded. */
    async fail(
      tx: DbOrTx,
      claim: Claim,
      error: string,
      now: Date,
      retryInMs: number,
    ): Promise<"retry" | "failed" | null> {
      const last = claim.attempts >= maxAttempts;
      const rows = await tx
        .update(table)
        .set(
          set(
            last
              ? { status: "FAILED", lockedUntil: null, lastError: error.slice(0, 500) }
              : {
                  status: "PENDING",
                  lockedUntil: new Date(now.getTime() + retryInMs),
                  lastError: error.slice(0, 500),
                },
          ),
        )
        .where(stillClaimed(claim))
        .returning({ id: table.id });
      if (rows.length === 0) return null;
      return last ? "failed" : "retry";
    },
  };
}
