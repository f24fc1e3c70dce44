import { pickText, type Speak, toLocale } from "@parlons/contract";
import { and, asc, count, eq, exists, gt, isNull, lte, notExists, or, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "../../db/client";
import { userRoles, users } from "../../db/schema/users";
import { planFacts } from "../plans/queries";
import { roleTitles } from "../roles/queries";

/** Who a bulk mail goes to (the contract's `mailAudience`): active accounts, narrowed by filters. */
export interface AudienceFilter {
  role?: string | undefined;
  /** "free", "premium" or a plan id. */
  plan?: string | undefined;
  speak?: Speak | undefined;
  /** Learners of this course: progress in one of its lessons. */
  courseId?: string | undefined;
  /**
   * Inactive since this instant: the account existed then, and no progress was saved, no minute
   * listened and no line reviewed after it.
   */
  inactiveSince?: Date | undefined;
  /** A condition on the user id the caller adds (the mail module: has not refused this mail). */
  accepts?: ((userId: AnyPgColumn) => SQL) | undefined;
}

export interface Recipient {
  id: string;
  email: string;
  speak: Speak;
  fullName: string;
  /** The plan's name in the user's language, "" without a plan. */
  planName: string;
}

/** A subquery naming rows of a user (an EXISTS test), from another module's published queries. */
type UserRowsQuery = Parameters<typeof exists>[0];

/**
 * What the learning modules publish about a user's activity (their queries.ts), given by the mail
 * module that asks for audiences, so that this module depends on none of them.
 */
export interface AudienceActivity {
  /** Rows of the user's progress in the course. */
  inCourse: (db: DbOrTx, userId: AnyPgColumn, courseId: string) => UserRowsQuery;
  /** Each kind of activity of the user since the date (lessons, listening, review…). */
  since: ((db: DbOrTx, userId: AnyPgColumn, since: Date) => UserRowsQuery)[];
}

/**
 * The users module's answer to "which users does this audience reach", for the mail module
 * (which must not read the users tables itself). Only ACTIVE accounts are ever reached.
 */
export function createAudienceQuery(db: Db, activity: AudienceActivity) {
  const roles = roleTitles(db);
  const plans = planFacts(db);
  function where(filter: AudienceFilter): SQL | undefined {
    const conditions: (SQL | undefined)[] = [eq(users.status, "ACTIVE")];
    if (filter.speak) conditions.push(eq(users.speak, filter.speak));
    if (filter.role) {
      conditions.push(
        exists(
          db
            .select({ one: userRoles.userId })
            .from(userRoles)
            .innerJoin(roles, eq(roles.id, userRoles.roleId))
            .where(and(eq(userRoles.userId, users.id), eq(roles.title, filter.role))),
        ),
      );
    }
    if (filter.plan === "free") conditions.push(or(isNull(users.planId), lte(plans.amount, 0)));
    else if (filter.plan === "premium") conditions.push(gt(plans.amount, 0));
    else if (filter.plan) conditions.push(eq(users.planId, filter.plan));
    if (filter.courseId) conditions.push(exists(activity.inCourse(db, users.id, filter.courseId)));
    if (filter.inactiveSince) {
      const since = filter.inactiveSince;
      conditions.push(
        lte(users.createdAt, since),
        ...activity.since.map((query) => notExists(query(db, users.id, since))),
      );
    }
    if (filter.accepts) conditions.push(filter.accepts(users.id));
    return and(...conditions);
  }

  const selectRecipients = (tx: DbOrTx) =>
    tx
      .select({
        id: users.id,
        email: users.email,
        speak: users.speak,
        fullName: users.fullName,
        nameEn: plans.name,
        nameFr: plans.nameFr,
      })
      .from(users)
      .leftJoin(plans, eq(plans.id, users.planId))
      .$dynamic();
  const toRecipient = ({
    nameEn,
    nameFr,
    ...user
  }: {
    id: string;
    email: string;
    speak: Speak;
    fullName: string;
    nameEn: string | null;
    nameFr: string | null;
  }): Recipient => ({ ...user, planName: pickText({ fr: nameFr, en: nameEn }, toLocale(user.speak)) });

  return {
    async count(filter: AudienceFilter, tx: DbOrTx = db): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(users)
        .leftJoin(plans, eq(plans.id, users.planId))
        .where(where(filter));
      return row?.n ?? 0;
    },

    /** One user as a recipient (whatever the filters): the staff member a test mail goes to. */
    async one(userId: string, tx: DbOrTx = db): Promise<Recipient | undefined> {
      const [row] = await selectRecipients(tx).where(eq(users.id, userId));
      return row && toRecipient(row);
    },

    /** The recipients in pages of `size`, by id (keyset), for queueing large audiences without one huge read. */
    async *recipients(filter: AudienceFilter, tx: DbOrTx = db, size = 1000): AsyncGenerator<Recipient[]> {
      let after: string | null = null;
      for (;;) {
        const rows: Recipient[] = (
          await selectRecipients(tx)
            .where(and(where(filter), after ? gt(users.id, after) : undefined))
            .orderBy(asc(users.id))
            .limit(size)
        ).map(toRecipient);
        if (rows.length === 0) return;
        yield rows;
        after = rows[rows.length - 1]?.id ?? null;
        if (rows.length < size) return;
      }
    },
  };
}
export type AudienceQuery = ReturnType<typeof createAudienceQuery>;
