import type { Plan } from "@parlons/contract";

/**
 * The paid plans that open a course: every plan of every course, and the plans of chosen courses
 * naming it (a single-course plan first, then the narrowest, then the display order).
 */
export function offersFor(plans: readonly Plan[], courseId: string): Plan[] {
  const opens = (p: Plan) => p.scope === "all" || p.course_ids.includes(courseId);
  const width = (p: Plan) => (p.scope === "all" ? Number.POSITIVE_INFINITY : p.course_ids.length);
  return plans
    .filter((p) => p.active && p.premium && opens(p))
    .sort((a, b) => width(a) - width(b) || a.position - b.position);
}

/** How a plan's reach reads on an offer: every course, this course alone, or n courses. */
export function offerReach(plan: Plan): { key: "all" | "one" | "some"; count: number } {
  if (plan.scope === "all") return { key: "all", count: 0 };
  return plan.course_ids.length === 1
    ? { key: "one", count: 1 }
    : { key: "some", count: plan.course_ids.length };
}
