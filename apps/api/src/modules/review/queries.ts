import { and, eq, gte, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../db/client";
import { reviewLogs } from "../../db/schema/review";

/** A line this user graded since `since`, as a sub-select correlated to a user id column (mail audience). */
export function reviewedSince(db: DbOrTx, userId: AnyPgColumn | SQL, since: Date) {
  return db
    .select({ one: sql`1` })
    .from(reviewLogs)
    .where(and(eq(reviewLogs.userId, userId), gte(reviewLogs.reviewedAt, since)));
}
