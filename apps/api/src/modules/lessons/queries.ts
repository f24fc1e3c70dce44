import { and, eq, gte, type SQL, sql } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../db/client";
import { lessonProgress, lessons } from "../../db/schema/lessons";

/**
 * What the lessons module publishes of its progress rows for other modules' own queries (the mail
 * audience), as sub-selects correlated to a user id column. Every write stays in the lessons service.
 */

/** A progress row of this user in one of the course's lessons: they started the course. */
export function progressInCourse(db: DbOrTx, userId: AnyPgColumn | SQL, courseId: string) {
  return db
    .select({ one: sql`1` })
    .from(lessonProgress)
    .innerJoin(lessons, eq(lessons.id, lessonProgress.lessonId))
    .where(and(eq(lessonProgress.userId, userId), eq(lessons.courseId, courseId)));
}

/** Progress this user saved since `since` (the player saves it as they listen, and at the end). */
export function progressSince(db: DbOrTx, userId: AnyPgColumn | SQL, since: Date) {
  return db
    .select({ one: sql`1` })
    .from(lessonProgress)
    .where(and(eq(lessonProgress.userId, userId), gte(lessonProgress.updatedAt, since)));
}

/** This user's lessons finished since `since`. */
export function doneSince(userId: string, since: Date): SQL | undefined {
  return and(
    eq(lessonProgress.userId, userId),
    eq(lessonProgress.done, true),
    gte(lessonProgress.doneAt, since),
  );
}

/** Lessons this user finished per local date (YYYY-MM-DD in `timeZone`) since `since`: the habit's study days. */
export async function lessonsDonePerDay(
  db: DbOrTx,
  userId: string,
  timeZone: string,
  since: Date,
): Promise<{ day: string; n: number }[]> {
  const day = sql<string>`to_char(${lessonProgress.doneAt} at time zone ${timeZone}, 'YYYY-MM-DD')`;
  return db
    .select({ day, n: sql<number>`count(*)`.mapWith(Number) })
    .from(lessonProgress)
    .where(doneSince(userId, since))
    .groupBy(sql`1`);
}
