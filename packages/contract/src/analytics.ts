import { z } from "zod";
import { envelope } from "./common";

/** Staff analytics: figures per UTC day from the rolled-up tables, over a range of at most a year. */
export const ANALYTICS_MAX_DAYS = 366;

const day = z.iso.date();
export const analyticsQuery = z
  .object({
    /** First day (UTC), default 29 days before `to`. */
    from: day.optional(),
    /** Last day (UTC), default today. */
    to: day.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: "The start must not be after the end",
    path: ["from"],
  })
  .refine(
    (q) => !q.from || !q.to || (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < ANALYTICS_MAX_DAYS,
    { message: `At most ${ANALYTICS_MAX_DAYS} days`, path: ["to"] },
  );
export type AnalyticsQuery = z.infer<typeof analyticsQuery>;

export const analyticsDay = z.object({
  day: z.string(),
  /** Learners who saved progress or reviewed a line that day. */
  active: z.number(),
  /** Minutes of audio in the lessons finished that day. */
  minutes: z.number(),
  lessons_done: z.number(),
  reviews: z.number(),
  /** Paid subscriptions started that day. */
  new_paid: z.number(),
  /** Paid subscriptions cancelled that day. */
  churned: z.number(),
  /** Monthly recurring revenue in cents as recorded that day (null: no snapshot that day). */
  mrr: z.number().nullable(),
  /** Places booked at events held that day. */
  attendance: z.number(),
});
export type AnalyticsDay = z.infer<typeof analyticsDay>;

const courseTitles = z.object({ course_id: z.string(), title_fr: z.string(), title_en: z.string() });
const lessonTitles = z.object({
  lesson_id: z.string(),
  position: z.number().int(),
  title_fr: z.string(),
  title_en: z.string(),
});

export const analyticsFunnelCourse = courseTitles.extend({
  lessons: z.array(lessonTitles.extend({ learners: z.number().int() })),
});

export const analytics = z.object({
  from: z.string(),
  to: z.string(),
  /** Everything written before this time is counted (the job's last run). */
  rolled_until: z.string().nullable(),
  days: z.array(analyticsDay),
  weeks: z.array(z.object({ start: z.string(), active: z.number() })),
  months: z.array(z.object({ start: z.string(), active: z.number() })),
  funnel: z.array(analyticsFunnelCourse),
  /** MRR at the end of the range, in cents, and the currency it is counted in. */
  mrr: z.number(),
  currency: z.string(),
});
export type Analytics = z.infer<typeof analytics>;
export const analyticsResponse = envelope(z.object({ analytics }));
export type AnalyticsResponse = z.infer<typeof analyticsResponse>;
export const analyticsRefreshResponse = envelope(z.object({ from: z.string(), to: z.string() }));

/**
 * What is hard in a course, line by line (staff): each lesson's lines with their learners' grades
 * (review grades and exercise results), failures ("Again": a failed recall or dictation) and
 * "Hard". `failure_rate` is failures over grades, null before any grade; `grades_per_learner` is
 * how often a learner came back to the line (what is recorded of replays: a line played again
 * inside an exercise is not).
 */
export const analyticsLine = z.object({
  cue_id: z.string(),
  position: z.number().int(),
  start: z.number(),
  end: z.number(),
  text: z.string(),
  grades: z.number().int(),
  again: z.number().int(),
  hard: z.number().int(),
  learners: z.number().int(),
  failure_rate: z.number().nullable(),
  grades_per_learner: z.number().nullable(),
});
export type AnalyticsLine = z.infer<typeof analyticsLine>;
export const analyticsCourseLines = courseTitles.extend({
  rolled_until: z.string().nullable(),
  lessons: z.array(lessonTitles.extend({ active: z.boolean(), lines: z.array(analyticsLine) })),
});
export type AnalyticsCourseLines = z.infer<typeof analyticsCourseLines>;
export const analyticsCourseLinesResponse = envelope(z.object({ lines: analyticsCourseLines }));
export type AnalyticsCourseLinesResponse = z.infer<typeof analyticsCourseLinesResponse>;

/** How far back a learner's activity makes them an active learner on the staff overview. */
export const ACTIVE_LEARNER_DAYS = 30;

/**
 * `GET /v1/analytics/overview` (dashboard.admin): the business at a glance on the staff landing
 * page, counted live. A figure is null when the caller lacks the permission of the page it comes
 * from: learners and lessons need analytics.read, sign-ups users.read, money customer-plans.manage.
 */
export const staffOverview = z.object({
  /** Learners with a lesson saved, a minute listened or a review in the last 30 days. */
  active_learners: z.number().int().nullable(),
  /** Lessons marked done since Monday 00:00 UTC. */
  lessons_done_week: z.number().int().nullable(),
  /** Learner accounts created since the 1st of the month (UTC). */
  new_learners_month: z.number().int().nullable(),
  /** Monthly recurring revenue of the live paid subscriptions, in cents (a yearly plan as a twelfth). */
  mrr: z.number().int().nullable(),
  /** Payments received since the 1st of the month (UTC), in cents, less those of purchases refunded. */
  revenue_month: z.number().int().nullable(),
  currency: z.string(),
  week_start: z.string().describe("YYYY-MM-DD, the Monday the week's count starts from"),
  month_start: z.string().describe("YYYY-MM-DD"),
});
export type StaffOverview = z.infer<typeof staffOverview>;
export const staffOverviewResponse = envelope(z.object({ overview: staffOverview }));
export type StaffOverviewResponse = z.infer<typeof staffOverviewResponse>;
