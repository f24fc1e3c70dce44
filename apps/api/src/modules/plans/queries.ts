import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { plans } from "../../db/schema/plans";

/**
 * What the plans module publishes of its table for other modules' own queries: the facts of a
 * plan a user holds (names, price, default flag), as a subquery to join (the current user, the
 * mail audience's free/premium filter). Every write to plans stays in the plans service.
 */
export function planFacts(db: DbOrTx) {
  return db
    .select({
      id: plans.id,
      name: plans.name,
      nameFr: plans.nameFr,
      amount: plans.amount,
      currency: plans.currency,
      isDefault: plans.isDefault,
    })
    .from(plans)
    .as("plan_facts");
}

/** The free plan a new account starts on, if staff have marked one as the default. */
export async function defaultPlanId(tx: DbOrTx): Promise<string | null> {
  const [plan] = await tx.select({ id: plans.id }).from(plans).where(eq(plans.isDefault, true));
  return plan?.id ?? null;
}
