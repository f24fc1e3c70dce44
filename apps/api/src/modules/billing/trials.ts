import { sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { subscriptionTrials } from "../../db/schema/billing";

/**
 * Whether the learner's trial claim (the row of `subscription_trials`) may be taken by a new
 * checkout: its checkout never started and never will, i.e. its customer plan closed without
 * starting, is still waiting for an approval PayPal no longer takes (3 hours), or was never
 * written (the provider failed; after an hour). A started subscription keeps the trial for good.
 */
const takeable = sql`
  not exists (
    select 1 from customer_plans c
    where c.id = ${subscriptionTrials.customerPlanId}
      and (c.started_at is not null
        or c.status in ('ACTIVE', 'SUSPENDED')
        or (c.status = 'APPROVAL_PENDING' and c.created_at > now() - interval '3 hours'))
  )
  and (
    exists (select 1 from customer_plans c where c.id = ${subscriptionTrials.customerPlanId})
    or ${subscriptionTrials.claimedAt} < now() - interval '1 hour'
  )`;

/**
 * One trial per learner, ever, held by the database: `subscription_trials` has one row per
 * learner (its primary key), taken by one insert-or-conditional-update, so concurrent checkouts
 * of one learner cannot both start with free days.
 */
export function createTrials(db: Db) {
  return {
    /** Whether a checkout started now would start with the plan's free days. */
    async available(userId: string): Promise<boolean> {
      const rows = await db
        .select({ userId: subscriptionTrials.userId })
        .from(subscriptionTrials)
        .where(sql`${subscriptionTrials.userId} = ${userId} and not (${takeable})`);
      return rows.length === 0;
    },

    /** Claims the learner's trial for this checkout; false when another checkout holds or used it. */
    async claim(userId: string, customerPlanId: string): Promise<boolean> {
      const rows = await db
        .insert(subscriptionTrials)
        .values({ userId, customerPlanId })
        .onConflictDoUpdate({
          target: subscriptionTrials.userId,
          set: { customerPlanId, claimedAt: sql`now()` },
          setWhere: takeable,
        })
        .returning({ userId: subscriptionTrials.userId });
      return rows.length > 0;
    },

    /**
     * At activation, in its transaction: whether this checkout still holds the learner's trial
     * (or may take it again, its holder never having started). False: another subscription used it.
     */
    async keep(userId: string, customerPlanId: string, tx: DbOrTx): Promise<boolean> {
      const rows = await tx
        .insert(subscriptionTrials)
        .values({ userId, customerPlanId })
        .onConflictDoUpdate({
          target: subscriptionTrials.userId,
          set: { customerPlanId, claimedAt: sql`now()` },
          setWhere: sql`${subscriptionTrials.customerPlanId} = ${customerPlanId} or (${takeable})`,
        })
        .returning({ userId: subscriptionTrials.userId });
      return rows.length > 0;
    },

    /** Gives back a claim whose checkout could not be made at the provider. */
    async release(userId: string, customerPlanId: string): Promise<void> {
      await db
        .delete(subscriptionTrials)
        .where(
          sql`${subscriptionTrials.userId} = ${userId} and ${subscriptionTrials.customerPlanId} = ${customerPlanId}`,
        );
    },
  };
}
