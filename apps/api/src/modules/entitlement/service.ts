import { PERMISSIONS } from "@parlons/contract";
import type { AppServices } from "../../lib/module";
import type { Principal } from "../../lib/principal";
import { type Access, opensCourse, unionAccess } from "./policy";

export type { Access } from "./policy";

/**
 * The one entitlement rule (ARCHITECTURE §6), with the course's pace (`paceLocks`) on top:
 * - staff who manage lessons see everything;
 * - a customer whose current plan is premium (amount > 0) and whose subscription to it is
 *   ACTIVE (or cancelled with paid time left) opens every lesson of the courses the plan opens:
 *   every course, or the ones it names (a single-course plan names one);
 * - a course bought once (paid, not refunded) opens every lesson of that course, for life;
 * - the learner's access is the union of the two;
 * - everyone else, anonymous visitors included, opens the free lessons only.
 * Premium-only events are open to whoever opens every course.
 * Whether a subscription grants the user's plan is billing's answer (it owns the customer plans).
 */
export function createEntitlementService(deps: {
  billing: Pick<AppServices["billing"], "subscriptionOf">;
  purchases: Pick<AppServices["purchases"], "coursesOf">;
}) {
  const { subscriptionOf } = deps.billing;

  /** What the principal opens, and until when it may stay so without a change (null: no end known). */
  async function accessWindow(
    principal: Principal | null,
    now = new Date(),
  ): Promise<{ access: Access; until: Date | null }> {
    if (!principal) return { access: "free", until: null };
    if (principal.permissions.has(PERMISSIONS.lessonsManage)) return { access: "all", until: null };
    const [{ customerPlanId, until, courseIds }, bought] = await Promise.all([
      subscriptionOf(principal.id, now),
      deps.purchases.coursesOf(principal.id),
    ]);
    const plan: Access | readonly string[] = !customerPlanId ? "free" : (courseIds ?? "all");
    // purchases are for life: only the plan's end bounds the window
    return { access: unionAccess([plan, bought]), until: customerPlanId ? until : null };
  }

  return {
    accessWindow,

    async accessOf(principal: Principal | null, now = new Date()): Promise<Access> {
      return (await accessWindow(principal, now)).access;
    },

    /** Whether a lesson opens for the given access level. */
    canOpen(access: Access, lesson: { free: boolean; courseId: string }): boolean {
      return lesson.free || opensCourse(access, lesson.courseId);
    },

    /** Whether an event may be booked for the given access level. */
    canJoinEvent(access: Access, event: { premium_only: boolean }): boolean {
      return access === "all" || !event.premium_only;
    },
  };
}
export type EntitlementService = ReturnType<typeof createEntitlementService>;
