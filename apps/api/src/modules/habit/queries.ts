import { and, eq, gte, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../db/client";
import { listeningMinutes } from "../../db/schema/habit";

/** A minute this user listened since `since`, as a sub-select correlated to a user id column (mail audience). */
export function listenedSince(db: DbOrTx, userId: AnyPgColumn | SQL, since: Date) {
  return db
    .select({ one: sql`1` })
    .from(listeningMinutes)
    .where(and(eq(listeningMinutes.userId, userId), gte(listeningMinutes.minute, since)));
}
