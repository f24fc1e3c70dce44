import { z } from "zod";
import { envelope } from "./common";
import { plan } from "./plans";

/**
 * What a plan opens, as the product gates it and as the catalogue stands (entitlement rule: a
 * lesson opens when it is free or its course is in the reader's access; a premium-only event books
 * with access to every course; a lesson downloads for offline use when it opens). The free plan
 * lists its free lessons and what every learner has with them (when a free lesson exists); a paid
 * plan only what it adds: every lesson (when the catalogue has one), the courses it names (those
 * live with a lesson), events for subscribers (when an upcoming one exists).
 */
export const planFeature = z.enum([
  "freeLessons",
  "transcripts",
  "repeatAfterMe",
  "review",
  "offlineFree",
  "allLessons",
  "courseLessons",
  "offlineCourses",
  "offlineAll",
  "premiumEvents",
]);
export type PlanFeature = z.infer<typeof planFeature>;

/** A plan on sale as the pricing page shows it: with what it opens now. */
export const publicPlan = plan.extend({
  /** Derived from what the plan opens among the courses, lessons and events that exist. */
  opens: z.array(planFeature),
  /** The live courses a plan of chosen courses opens, by their titles (empty for the others). */
  courses: z.array(z.object({ id: z.string(), title_fr: z.string(), title_en: z.string() })),
});
export type PublicPlan = z.infer<typeof publicPlan>;
/** `GET /v1/plans/active`: the plans on sale, in display order, each with what it opens. */
export const activePlansResponse = envelope(z.object({ plans: z.array(publicPlan) }));
