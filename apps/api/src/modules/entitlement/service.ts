import { PERMISSIONS } from "@parlons/contract";
import { and, eq, gt, inArray, or } from "drizzle-orm";
import type { Db } from "../../db/client";
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
  return {
    async accessOf(principal: Principal | null, now = new Date()): Promise<Access> {
      if (!principal) return "free";
      if (principal.permissions.has(PERMISSIONS.lessonsManage)) return "all";
      const [row] = await db
        .select({ id: customerPlans.id })
        .from(users)
        .innerJoin(plans, eq(plans.id, users.planId))
        .innerJoin(customerPlans, and(eq(customerPlans.userId, users.id), eq(customerPlans.planId, plans.id)))
        .where(
          and(
            eq(users.id, principal.id),
            gt(plans.amount, 0),
            or(
              eq(customerPlans.status, "ACTIVE"),
              and(
                inArray(customerPlans.status, ["CANCELLED", "SUSPENDED"]),
                gt(customerPlans.accessUntil, now),
              ),
            ),
          ),
        )
        .limit(1);
      return row ? "all" : "free";
    },

    /** Whether a lesson opens for the given access level. */
    canOpen(access: Access, lesson: { free: boolean }): boolean {
      return access === "all" || lesson.free;
    },
  };
}
export type EntitlementService = ReturnType<typeof createEntitlementService>;
