import { PERMISSIONS } from "@parlons/contract";
import { and, desc, eq, gt, inArray, or } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { customerPlans, plans, users } from "../../db/schema";
import type { Principal } from "../users/service";

export type Access = "all" | "free";

/**
 * The one entitlement rule (ARCHITECTURE §6):
 * - staff who manage lessons see everything;
 * - a customer whose current plan is premium (amount > 0) and whose subscription to it is
 *   ACTIVE (or cancelled with paid time left) opens every lesson;
 * - everyone else, anonymous visitors included, opens the free lessons only.
 */
export function createEntitlementService(db: Db) {
  /**
   * The user's current plan and, when that plan is premium, the customer plan that grants it
   * (null when none does). Billing uses it to put a user whose paid access ended back on the free plan.
   */
  async function subscriptionOf(userId: string, now = new Date(), tx: DbOrTx = db) {
    const [current] = await tx
      .select({ planId: plans.id, amount: plans.amount })
      .from(users)
      .innerJoin(plans, eq(plans.id, users.planId))
      .where(eq(users.id, userId));
    if (!current || current.amount <= 0) return { premiumPlan: false, customerPlanId: null, until: null };
    const [row] = await tx
      .select({ id: customerPlans.id, status: customerPlans.status, accessUntil: customerPlans.accessUntil })
      .from(customerPlans)
      .where(
        and(
          eq(customerPlans.userId, userId),
          eq(customerPlans.planId, current.planId),
          or(
            eq(customerPlans.status, "ACTIVE"),
            and(
              inArray(customerPlans.status, ["CANCELLED", "SUSPENDED"]),
              gt(customerPlans.accessUntil, now),
            ),
          ),
        ),
      )
      .orderBy(desc(customerPlans.createdAt))
      .limit(1);
    // a cancelled or suspended subscription opens everything until its paid time ends
    const until = row && row.status !== "ACTIVE" ? row.accessUntil : null;
    return { premiumPlan: true, customerPlanId: row?.id ?? null, until };
  }

  /** What the principal opens, and until when it may stay so without a change (null: no end known). */
  async function accessWindow(
    principal: Principal | null,
    now = new Date(),
  ): Promise<{ access: Access; until: Date | null }> {
    if (!principal) return { access: "free", until: null };
    if (principal.permissions.has(PERMISSIONS.lessonsManage)) return { access: "all", until: null };
    const { customerPlanId, until } = await subscriptionOf(principal.id, now);
    return customerPlanId ? { access: "all", until } : { access: "free", until: null };
  }

  return {
    subscriptionOf,
    accessWindow,

    async accessOf(principal: Principal | null, now = new Date()): Promise<Access> {
      return (await accessWindow(principal, now)).access;
    },

    /** Whether a lesson opens for the given access level. */
    canOpen(access: Access, lesson: { free: boolean }): boolean {
      return access === "all" || lesson.free;
    },
  };
}
export type EntitlementService = ReturnType<typeof createEntitlementService>;
