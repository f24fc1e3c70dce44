import type { Plan } from "@parlons/contract";

/**
 * What a plan opens, as the product gates it (entitlement rule: a lesson opens when it is free or
 * its course is in the reader's access; a premium-only event books with access to every course;
 * a lesson downloads for offline use when it opens). Each is a text of `billing:pricing.opens.*`.
 * - the free plan: its free lessons and what every learner has with them;
 * - a paid plan: what it adds to the free plan, and nothing the free plan already gives.
 */
export type OpenedFeature =
  | "freeLessons"
  | "transcripts"
  | "repeatAfterMe"
  | "review"
  | "offlineFree"
  | "allLessons"
  | "courseLessons"
  | "offlineAll"
  | "offlineCourses"
  | "premiumEvents";

const FREE: readonly OpenedFeature[] = [
  "freeLessons",
  "transcripts",
  "repeatAfterMe",
  "review",
  "offlineFree",
];
const EVERY_COURSE: readonly OpenedFeature[] = ["allLessons", "offlineAll", "premiumEvents"];
const CHOSEN_COURSES: readonly OpenedFeature[] = ["courseLessons", "offlineCourses"];

export function openedFeatures(plan: Pick<Plan, "premium" | "scope">): readonly OpenedFeature[] {
  if (!plan.premium) return FREE;
  return plan.scope === "all" ? EVERY_COURSE : CHOSEN_COURSES;
}

/** A feature's text reduced to its letters and digits, lower case, without accents or quotes. */
function key(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/**
 * The features staff wrote for a plan that say something of their own: those that repeat one of
 * `taken` (what the plan's derived list already says, and for a paid plan everything the free
 * plan lists) or an earlier one are left out.
 */
export function extraFeatures(written: readonly string[], taken: readonly string[]): string[] {
  const seen = new Set(taken.map(key));
  const extras: string[] = [];
  for (const text of written) {
    const k = key(text);
    if (!k || seen.has(k)) continue;
    seen.add(k);
    extras.push(text);
  }
  return extras;
}

/** The free plan the paid plans are compared with: the default one, else the first free one. */
export function freePlanOf(plans: readonly Plan[]): Plan | undefined {
  return plans.find((p) => !p.premium && p.is_default) ?? plans.find((p) => !p.premium);
}
