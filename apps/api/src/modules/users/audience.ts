import { and, asc, count, eq, exists, gt, isNull, lte, or, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { plans, roles, userRoles, users } from "../../db/schema";

/** Who a bulk mail goes to (the contract's `mailAudience`): active accounts, narrowed by filters. */
export interface AudienceFilter {
  role?: string | undefined;
  /** "free", "premium" or a plan id. */
  plan?: string | undefined;
  speak?: "FR" | "EN" | undefined;
}

export interface Recipient {
  id: string;
  email: string;
  speak: "FR" | "EN";
  fullName: string;
  /** The plan's name in the user's language, "" without a plan. */
  planName: string;
}

/**
 * The users module's answer to "which users does this audience reach", for the mail module
 * (which must not read the users tables itself). Only ACTIVE accounts are ever reached.
 */
export function createAudienceQuery(db: Db) {
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
    return and(...conditions);
  }

  return {
    async count(filter: AudienceFilter, tx: DbOrTx = db): Promise<number> {
      const [row] = await tx
        .select({ n: count() })
        .from(users)
        .leftJoin(plans, eq(plans.id, users.planId))
        .where(where(filter));
      return row?.n ?? 0;
    },

    /** The recipients in pages of `size`, by id (keyset), for queueing large audiences without one huge read. */
    async *recipients(filter: AudienceFilter, tx: DbOrTx = db, size = 1000): AsyncGenerator<Recipient[]> {
      let after: string | null = null;
      for (;;) {
        const rows: Recipient[] = (
          await tx
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
            .where(and(where(filter), after ? gt(users.id, after) : undefined))
            .orderBy(asc(users.id))
            .limit(size)
        ).map(({ nameEn, nameFr, ...user }) => ({
          ...user,
          planName: (user.speak === "EN" ? nameEn : nameFr) ?? "",
        }));
        if (rows.length === 0) return;
        yield rows;
        after = rows[rows.length - 1]?.id ?? null;
        if (rows.length < size) return;
      }
    },
  };
}
export type AudienceQuery = ReturnType<typeof createAudienceQuery>;
