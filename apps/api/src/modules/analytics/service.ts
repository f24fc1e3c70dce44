import type { Analytics, AnalyticsCourseLines, AnalyticsDay, AnalyticsQuery } from "@parlons/contract";
import { and, asc, between, desc, eq, gte, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import {
  analyticsDaily,
  analyticsLessonReach,
  analyticsLineGrades,
  analyticsState,
} from "../../db/schema/analytics";
import { courses } from "../../db/schema/courses";
import { lessonCues, lessons } from "../../db/schema/lessons";
import { type Clock, systemClock } from "../../lib/clock";
import { notFound } from "../../lib/errors";
import { staffOverview } from "./overview";
import { DAILY_METRICS, rollup, utcDay } from "./rollup";

const DAY_MS = 86_400_000;
const DEFAULT_DAYS = 30;

/** The days from `from` to `to` (UTC, both included). */
function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(from); t <= Date.parse(to); t += DAY_MS) out.push(utcDay(new Date(t)));
  return out;
}

/** The range asked, or the last 30 days to today. */
function rangeOf(query: AnalyticsQuery, now = new Date()): { from: string; to: string } {
  const to = query.to ?? utcDay(now);
  const from = query.from ?? utcDay(new Date(Date.parse(to) - (DEFAULT_DAYS - 1) * DAY_MS));
  return { from, to };
}

const CSV_COLUMNS = ["day", ...DAILY_METRICS] as const satisfies readonly (keyof AnalyticsDay)[];

/** The days as CSV (RFC 4180, a header line, MRR in cents), ready for a spreadsheet. */
export function analyticsCsv(days: AnalyticsDay[]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const d of days) lines.push(CSV_COLUMNS.map((c) => (d[c] === null ? "" : String(d[c]))).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

/** Staff analytics: reads the rolled-up tables only (see rollup.ts for how they are kept). */
export function createAnalyticsService(deps: { db: Db; clock?: Clock }) {
  const { db, clock = systemClock } = deps;
  return {
    /** One run of the job now (the staff "refresh" button, the tests). */
    rollup: (now?: Date) => rollup(db, now),

    /** The staff landing page's figures, those the permissions open (overview.ts). */
    overview: (permissions: ReadonlySet<string>) => staffOverview(db, permissions, clock()),

    /** Each lesson's lines of the course (in order) with what their grades add up to. */
    async courseLines(courseId: string): Promise<AnalyticsCourseLines> {
      const [course] = await db
        .select({ id: courses.id, titleFr: courses.titleFr, titleEn: courses.titleEn })
        .from(courses)
        .where(eq(courses.id, courseId));
      if (!course) throw notFound("Course");
      const [rows, state] = await Promise.all([
        db
          .select({
            lessonId: lessons.id,
            lessonPosition: lessons.position,
            titleFr: lessons.titleFr,
            titleEn: lessons.titleEn,
            active: lessons.active,
            cueId: lessonCues.id,
            position: lessonCues.position,
            start: lessonCues.start,
            end: lessonCues.end,
            text: lessonCues.text,
            grades: sql<number>`coalesce(${analyticsLineGrades.grades}, 0)`.mapWith(Number),
            again: sql<number>`coalesce(${analyticsLineGrades.again}, 0)`.mapWith(Number),
            hard: sql<number>`coalesce(${analyticsLineGrades.hard}, 0)`.mapWith(Number),
            learners: sql<number>`coalesce(${analyticsLineGrades.learners}, 0)`.mapWith(Number),
          })
          .from(lessons)
          .leftJoin(lessonCues, eq(lessonCues.lessonId, lessons.id))
          .leftJoin(analyticsLineGrades, eq(analyticsLineGrades.cueId, lessonCues.id))
          .where(eq(lessons.courseId, courseId))
          .orderBy(asc(lessons.position), asc(lessons.createdAt), asc(lessonCues.position)),
        db.select().from(analyticsState).where(eq(analyticsState.key, "rollup")),
      ]);
      const byLesson = new Map<string, AnalyticsCourseLines["lessons"][number]>();
      const ratio = (n: number, d: number) => (d > 0 ? Math.round((n / d) * 1000) / 1000 : null);
      for (const r of rows) {
        let lesson = byLesson.get(r.lessonId);
        if (!lesson) {
          lesson = {
            lesson_id: r.lessonId,
            position: r.lessonPosition,
            title_fr: r.titleFr,
            title_en: r.titleEn,
            active: r.active,
            lines: [],
          };
          byLesson.set(r.lessonId, lesson);
        }
        if (r.cueId === null) continue;
        lesson.lines.push({
          cue_id: r.cueId,
          position: r.position ?? 0,
          start: r.start ?? 0,
          end: r.end ?? 0,
          text: r.text ?? "",
          grades: r.grades,
          again: r.again,
          hard: r.hard,
          learners: r.learners,
          failure_rate: ratio(r.again, r.grades),
          grades_per_learner: ratio(r.grades, r.learners),
        });
      }
      return {
        course_id: course.id,
        title_fr: course.titleFr,
        title_en: course.titleEn,
        rolled_until: state[0]?.rolledUntil.toISOString() ?? null,
        lessons: [...byLesson.values()],
      };
    },

    async read(query: AnalyticsQuery, now = new Date()): Promise<Analytics> {
      const { from, to } = rangeOf(query, now);
      const [rows, periods, reach, state, lastMrr] = await Promise.all([
        db
          .select()
          .from(analyticsDaily)
          .where(
            and(inArray(analyticsDaily.metric, [...DAILY_METRICS]), between(analyticsDaily.day, from, to)),
          ),
        db
          .select()
          .from(analyticsDaily)
          .where(
            and(
              inArray(analyticsDaily.metric, ["active_week", "active_month"]),
              gte(analyticsDaily.day, sql`date_trunc('month', ${from}::date)::date`),
              lte(analyticsDaily.day, to),
            ),
          )
          .orderBy(asc(analyticsDaily.day)),
        db
          .select({
            courseId: courses.id,
            courseFr: courses.titleFr,
            courseEn: courses.titleEn,
            lessonId: lessons.id,
            position: lessons.position,
            titleFr: lessons.titleFr,
            titleEn: lessons.titleEn,
            learners: sql<number>`coalesce(${analyticsLessonReach.learners}, 0)`.mapWith(Number),
          })
          .from(lessons)
          .innerJoin(courses, eq(courses.id, lessons.courseId))
          .leftJoin(analyticsLessonReach, eq(analyticsLessonReach.lessonId, lessons.id))
          .where(eq(lessons.active, true))
          .orderBy(
            asc(courses.position),
            asc(courses.titleFr),
            asc(lessons.position),
            asc(lessons.createdAt),
          ),
        db.select().from(analyticsState).where(eq(analyticsState.key, "rollup")),
        db
          .select({ value: analyticsDaily.value })
          .from(analyticsDaily)
          .where(and(eq(analyticsDaily.metric, "mrr"), lte(analyticsDaily.day, to)))
          .orderBy(desc(analyticsDaily.day))
          .limit(1),
      ]);
      const byDay = new Map<string, AnalyticsDay>();
      for (const day of daysBetween(from, to)) {
        byDay.set(day, {
          day,
          active: 0,
          minutes: 0,
          lessons_done: 0,
          reviews: 0,
          new_paid: 0,
          churned: 0,
          mrr: null,
          attendance: 0,
        });
      }
      for (const row of rows) {
        const d = byDay.get(row.day);
        if (!d) continue;
        const metric = row.metric as (typeof DAILY_METRICS)[number];
        d[metric] = metric === "minutes" ? Math.round(row.value * 10) / 10 : Math.round(row.value);
      }
      const funnel = new Map<string, Analytics["funnel"][number]>();
      for (const r of reach) {
        let course = funnel.get(r.courseId);
        if (!course) {
          course = { course_id: r.courseId, title_fr: r.courseFr, title_en: r.courseEn, lessons: [] };
          funnel.set(r.courseId, course);
        }
        course.lessons.push({
          lesson_id: r.lessonId,
          position: r.position,
          title_fr: r.titleFr,
          title_en: r.titleEn,
          learners: r.learners,
        });
      }
      const weekFrom = utcDay(new Date(Date.parse(from) - ((new Date(from).getUTCDay() + 6) % 7) * DAY_MS));
      return {
        from,
        to,
        rolled_until: state[0]?.rolledUntil.toISOString() ?? null,
        days: [...byDay.values()],
        weeks: periods
          .filter((p) => p.metric === "active_week" && p.day >= weekFrom)
          .map((p) => ({ start: p.day, active: p.value })),
        months: periods
          .filter((p) => p.metric === "active_month")
          .map((p) => ({ start: p.day, active: p.value })),
        funnel: [...funnel.values()],
        mrr: Math.round(lastMrr[0]?.value ?? 0),
        currency: "EUR",
      };
    },
  };
}
