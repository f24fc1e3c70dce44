import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { lessons } from "../../db/schema/lessons";
import { type CoursePace, type PaceLock, paceLocks } from "../entitlement/policy";
import { progressOf } from "./progress";

/**
 * The lessons the courses' paces keep closed for a learner (staff are not paced: the caller
 * leaves them out), by lesson id: one query for the paced courses' active lessons, one for the
 * learner's progress in them.
 */
export async function paceLocksIn(
  db: DbOrTx,
  courses: readonly ({ id: string } & CoursePace)[],
  userId: string | null,
): Promise<Map<string, PaceLock>> {
  const paced = courses.filter((c) => c.dripMode !== "open");
  const locks = new Map<string, PaceLock>();
  if (paced.length === 0) return locks;
  const rows = await db
    .select({ id: lessons.id, courseId: lessons.courseId })
    .from(lessons)
    .where(
      and(
        inArray(
          lessons.courseId,
          paced.map((c) => c.id),
        ),
        eq(lessons.active, true),
      ),
    )
    .orderBy(asc(lessons.position), asc(lessons.createdAt));
  const progress = await progressOf(
    db,
    userId,
    rows.map((r) => r.id),
  );
  for (const course of paced) {
    const ofCourse = rows.filter((r) => r.courseId === course.id);
    for (const [id, lock] of paceLocks(course, ofCourse, progress)) locks.set(id, lock);
  }
  return locks;
}
