import type { CourseOverview, DoneCustomerBody, LessonProgress } from "@parlons/contract";
import { and, asc, count, countDistinct, desc, eq, inArray, max, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { lessonProgress, lessonProgressRequests, lessons } from "../../db/schema/lessons";
import { translatedFields } from "../../lib/naming";
import { type Access, type CoursePace, mayOpen, type PaceLock, paceLocks } from "../entitlement/policy";
import { doneSince } from "./queries";

type LessonRow = typeof lessons.$inferSelect;
export type ProgressRow = typeof lessonProgress.$inferSelect;

export interface CourseStats {
  lessons: number;
  free: number;
  duration: number;
}

export function presentProgress(p: ProgressRow | undefined): LessonProgress | null {
  if (!p) return null;
  return {
    done: p.done,
    done_at: p.doneAt?.toISOString() ?? null,
    last_position: p.lastPosition,
    play_count: p.playCount,
    updated_at: p.updatedAt.toISOString(),
  };
}

/** A learner's progress in these lessons, by lesson id (none for an anonymous reader). */
export async function progressOf(
  db: DbOrTx,
  userId: string | null,
  lessonIds: string[],
): Promise<Map<string, ProgressRow>> {
  if (!userId || lessonIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(lessonProgress)
    .where(and(eq(lessonProgress.userId, userId), inArray(lessonProgress.lessonId, lessonIds)));
  return new Map(rows.map((r) => [r.lessonId, r]));
}

/**
 * Each learner's progress in the lessons, and what it adds up to per course: done, resume
 * position and plays (one row per learner and lesson), course overviews, completion, counts.
 */
export function createLessonProgress(db: Db) {
  return {
    /** Learners with progress in the course. */
    async learnersOf(courseId: string): Promise<number> {
      const [row] = await db
        .select({ n: countDistinct(lessonProgress.userId) })
        .from(lessonProgress)
        .innerJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
        .where(eq(lessons.courseId, courseId));
      return row?.n ?? 0;
    },

    /** Counts over active lessons, per course. */
    async statsByCourse(courseIds: string[]): Promise<Map<string, CourseStats>> {
      if (courseIds.length === 0) return new Map();
      const rows = await db
        .select({
          courseId: lessons.courseId,
          lessons: count(),
          free: sql<number>`count(*) filter (where ${lessons.free})`.mapWith(Number),
          duration: sql<number>`coalesce(sum(${lessons.audioDuration}), 0)`.mapWith(Number),
        })
        .from(lessons)
        .where(and(inArray(lessons.courseId, courseIds), eq(lessons.active, true)))
        .groupBy(lessons.courseId);
      return new Map(
        rows.map((r) => [r.courseId, { lessons: r.lessons, free: r.free, duration: r.duration }]),
      );
    },

    /**
     * Marks done / undone, saves the resume position and counts plays, in one upsert on
     * (user, lesson): concurrent saves never create two rows, and the last write wins. With an
     * idempotency key, a call already applied under that key is not applied again: the progress
     * as it stands is returned (the key is recorded in the same transaction as the change).
     */
    async saveProgress(
      userId: string,
      lesson: LessonRow,
      body: DoneCustomerBody,
      idempotencyKey?: string,
    ): Promise<ProgressRow> {
      if (!idempotencyKey) return upsertProgress(db, userId, lesson, body);
      return db.transaction(async (tx) => {
        const [fresh] = await tx
          .insert(lessonProgressRequests)
          .values({ userId, key: idempotencyKey, lessonId: lesson.id })
          .onConflictDoNothing()
          .returning({ key: lessonProgressRequests.key });
        if (!fresh) {
          const [row] = await tx
            .select()
            .from(lessonProgress)
            .where(and(eq(lessonProgress.userId, userId), eq(lessonProgress.lessonId, lesson.id)));
          if (row) return row as ProgressRow;
        } else {
          await tx
            .delete(lessonProgressRequests)
            .where(
              and(
                eq(lessonProgressRequests.userId, userId),
                sql`${lessonProgressRequests.createdAt} < now() - interval '30 days'`,
              ),
            );
        }
        return upsertProgress(tx, userId, lesson, body);
      });
    },

    /** A learner's progress in each of the given courses (active lessons only). */
    async overviews(
      courseIds: string[],
      userId: string,
      access: Access,
      /** Each course's pace (learners only: staff are not paced): the next lesson may be closed by it. */
      paces: ReadonlyMap<string, CoursePace> = new Map(),
    ): Promise<Map<string, CourseOverview>> {
      const result = new Map<string, CourseOverview>();
      if (courseIds.length === 0) return result;
      const rows = await db
        .select({ lesson: lessons, progress: lessonProgress })
        .from(lessons)
        .leftJoin(
          lessonProgress,
          and(eq(lessonProgress.lessonId, lessons.id), eq(lessonProgress.userId, userId)),
        )
        .where(and(inArray(lessons.courseId, courseIds), eq(lessons.active, true)))
        .orderBy(asc(lessons.position), asc(lessons.createdAt));
      for (const courseId of courseIds) {
        const list = rows.filter((r) => r.lesson.courseId === courseId);
        const pace = paces.get(courseId);
        const paced = pace
          ? paceLocks(
              pace,
              list.map((r) => r.lesson),
              new Map(list.flatMap((r) => (r.progress ? [[r.lesson.id, r.progress] as const] : []))),
            )
          : new Map<string, PaceLock>();
        let done = 0;
        let listened = 0;
        let total = 0;
        let last: Date | null = null;
        let next: CourseOverview["next_lesson"] = null;
        for (const { lesson, progress } of list) {
          const duration = lesson.audioDuration ?? 0;
          total += duration;
          if (progress?.done) {
            done += 1;
            listened += duration;
          } else {
            listened += Math.min(progress?.lastPosition ?? 0, duration);
            const lock = paced.get(lesson.id);
            next ??= {
              id: lesson.id,
              position: lesson.position,
              title_fr: lesson.titleFr,
              title_en: lesson.titleEn,
              ...translatedFields(lesson.translations, ["title"] as const, ""),
              locked: !mayOpen({ staff: false, access }, lesson, { active: true }, lock).open,
              drip: lock ? { reason: lock.reason, opens_at: lock.opensAt?.toISOString() ?? null } : null,
              last_position: progress?.lastPosition ?? 0,
            };
          }
          if (progress && (!last || progress.updatedAt > last)) last = progress.updatedAt;
        }
        result.set(courseId, {
          course_id: courseId,
          lessons_total: list.length,
          lessons_done: done,
          percent: list.length ? Math.round((done / list.length) * 100) : 0,
          seconds_listened: Math.round(listened),
          total_duration: total,
          next_lesson: next,
          last_activity_at: last?.toISOString() ?? null,
        });
      }
      return result;
    },

    /** Courses the learner has progress in, most recent activity first. */
    async coursesInProgress(userId: string, limit = 20): Promise<string[]> {
      const rows = await db
        .select({ courseId: lessons.courseId, last: max(lessonProgress.updatedAt) })
        .from(lessonProgress)
        .innerJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
        .where(eq(lessonProgress.userId, userId))
        .groupBy(lessons.courseId)
        .orderBy(desc(max(lessonProgress.updatedAt)))
        .limit(limit);
      return rows.map((r) => r.courseId);
    },

    /** How many active lessons the course has, and how many of them the learner has done. */
    async completion(userId: string, courseId: string): Promise<{ total: number; done: number }> {
      const [row] = await db
        .select({
          total: count(),
          done: sql<number>`count(${lessonProgress.userId}) filter (where ${lessonProgress.done})`.mapWith(
            Number,
          ),
        })
        .from(lessons)
        .leftJoin(
          lessonProgress,
          and(eq(lessonProgress.lessonId, lessons.id), eq(lessonProgress.userId, userId)),
        )
        .where(and(eq(lessons.courseId, courseId), eq(lessons.active, true)));
      return { total: row?.total ?? 0, done: row?.done ?? 0 };
    },

    async doneSince(userId: string, since: Date): Promise<number> {
      const [row] = await db.select({ n: count() }).from(lessonProgress).where(doneSince(userId, since));
      return row?.n ?? 0;
    },
  };
}

async function upsertProgress(
  db: DbOrTx,
  userId: string,
  lesson: LessonRow,
  body: DoneCustomerBody,
): Promise<ProgressRow> {
  const now = new Date();
  const position =
    body.last_position === undefined
      ? undefined
      : Math.min(body.last_position, lesson.audioDuration ?? body.last_position);
  const set: Record<string, unknown> = { updatedAt: now };
  if (position !== undefined) set.lastPosition = position;
  if (body.done === true) {
    set.done = true;
    set.doneAt = sql`coalesce(${lessonProgress.doneAt}, ${now.toISOString()}::timestamptz)`;
  } else if (body.done === false) {
    set.done = false;
    set.doneAt = null;
  }
  if (body.played) set.playCount = sql`${lessonProgress.playCount} + 1`;
  const [row] = await db
    .insert(lessonProgress)
    .values({
      userId,
      lessonId: lesson.id,
      done: body.done ?? false,
      doneAt: body.done ? now : null,
      lastPosition: position ?? 0,
      playCount: body.played ? 1 : 0,
    })
    .onConflictDoUpdate({ target: [lessonProgress.userId, lessonProgress.lessonId], set })
    .returning();
  return row as ProgressRow;
}
