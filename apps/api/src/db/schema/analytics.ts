import {
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { courses } from "./courses";
import { lessonCues, lessons } from "./lessons";
import { users } from "./users";

/**
 * Staff analytics read only these tables: figures rolled up by the analytics job (one row per
 * day, metric and dimension), never the millions of progress rows a page view would scan.
 */
export const analyticsDaily = pgTable(
  "analytics_daily",
  {
    /** The UTC day; for `active_week` / `active_month`, the first day of the week (Monday) or month. */
    day: date("day", { mode: "string" }).notNull(),
    metric: text("metric").notNull(),
    dim: text("dim").notNull().default(""),
    value: doublePrecision("value").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.metric, t.day, t.dim] })],
);

/** The days each learner was active (progress saved or a line reviewed): what distinct counts over a week or month read. */
export const analyticsActive = pgTable(
  "analytics_active",
  {
    day: date("day", { mode: "string" }).notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.day, t.userId] }), index("analytics_active_user_idx").on(t.userId)],
);

/** How many learners reached (have progress in) each lesson: the completion funnel, kept by increments. */
export const analyticsLessonReach = pgTable("analytics_lesson_reach", {
  lessonId: uuid("lesson_id")
    .primaryKey()
    .references(() => lessons.id, { onDelete: "cascade" }),
  courseId: uuid("course_id")
    .notNull()
    .references(() => courses.id, { onDelete: "cascade" }),
  learners: integer("learners").notNull().default(0),
});

/**
 * What the learners' grades of each lesson line add up to (review grades and exercise results are
 * both review log rows): how many grades, how many "Again" (a failed recall or dictation) and
 * "Hard", and how many learners graded it (each card's first grade). Kept by increments, for the
 * authors' heatmap of hard lines.
 */
export const analyticsLineGrades = pgTable(
  "analytics_line_grades",
  {
    cueId: uuid("cue_id")
      .primaryKey()
      .references(() => lessonCues.id, { onDelete: "cascade" }),
    lessonId: uuid("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    grades: integer("grades").notNull().default(0),
    again: integer("again").notNull().default(0),
    hard: integer("hard").notNull().default(0),
    learners: integer("learners").notNull().default(0),
  },
  (t) => [index("analytics_line_grades_lesson_idx").on(t.lessonId)],
);

/** The job's watermark: everything written before `rolled_until` is in the tables above. */
export const analyticsState = pgTable("analytics_state", {
  key: text("key").primaryKey(),
  rolledUntil: timestamp("rolled_until", { withTimezone: true }).notNull(),
});
