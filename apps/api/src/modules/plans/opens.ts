import type { Plan, PlanFeature, PublicPlan } from "@parlons/contract";

/** What the catalogue holds now, as far as a plan's list of what it opens depends on it. */
export interface Catalogue {
  /** The live courses, with their lessons and free lessons. */
  courses: readonly { id: string; title_fr: string; title_en: string; lessons: number; free: number }[];
  /** Whether a live premium-only event is not over yet. */
  premiumEvents: boolean;
}

const WITH_FREE_LESSONS: readonly PlanFeature[] = [
  "freeLessons",
  "transcripts",
  "repeatAfterMe",
  "review",
  "offlineFree",
];

/**
 * A plan with what it opens, derived from the product's rules and what exists (contract
 * `planFeature`): nothing is sold that the catalogue does not hold, and a paid plan lists only
 * what it adds to the free plan.
 */
export function withOpens(plan: Plan, catalogue: Catalogue): PublicPlan {
  const opens: PlanFeature[] = [];
  let named: PublicPlan["courses"] = [];
  if (!plan.premium) {
    if (catalogue.courses.some((c) => c.free > 0)) opens.push(...WITH_FREE_LESSONS);
  } else if (plan.scope === "all") {
    if (catalogue.courses.some((c) => c.lessons > 0)) opens.push("allLessons", "offlineAll");
    if (catalogue.premiumEvents) opens.push("premiumEvents");
  } else {
    named = catalogue.courses
      .filter((c) => c.lessons > 0 && plan.course_ids.includes(c.id))
      .map(({ id, title_fr, title_en }) => ({ id, title_fr, title_en }));
    if (named.length) opens.push("courseLessons", "offlineCourses");
  }
  return { ...plan, opens, courses: named };
}
