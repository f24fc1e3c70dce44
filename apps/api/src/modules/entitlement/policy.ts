import { AppError, notFound } from "../../lib/errors";

/**
 * What a reader opens beyond the free lessons: every course (`"all"`), only the free lessons
 * (`"free"`), or every lesson of the courses named (`"courses:<id>,<id>"`: the union of their
 * course plan and the courses they bought). A string, sorted and without repeats, so that one
 * access has one spelling wherever it is written into a key (the kept answers per reader).
 */
export type Access = "all" | "free" | `courses:${string}`;

const COURSES = "courses:";

/** The courses an access names (none for "all" and "free"). */
export function coursesOf(access: Access): string[] {
  return access.startsWith(COURSES) ? access.slice(COURSES.length).split(",").filter(Boolean) : [];
}

/** Whether `access` opens the premium lessons of the course `courseId`. */
export function opensCourse(access: Access, courseId: string): boolean {
  if (access === "all") return true;
  if (access === "free") return false;
  return coursesOf(access).includes(courseId);
}

/**
 * The union of what several grants open (an access, or a list of course ids): every course wins;
 * otherwise the courses of each, sorted and without repeats; none is `"free"`.
 */
export function unionAccess(grants: readonly (Access | readonly string[])[]): Access {
  const ids = new Set<string>();
  for (const g of grants) {
    if (g === "all") return "all";
    for (const id of typeof g === "string" ? coursesOf(g) : g) ids.add(id);
  }
  return ids.size ? `${COURSES}${[...ids].sort().join(",")}` : "free";
}

/** The spec's two-valued answer for one course: "all" when the access opens it, else "free". */
export function accessToCourse(access: Access, courseId: string): "all" | "free" {
  return opensCourse(access, courseId) ? "all" : "free";
}

/** A course's pace (`courses.drip_mode` / `drip_days`). */
export interface CoursePace {
  dripMode: "open" | "sequence" | "days";
  dripDays: number;
}

/** Why the pace keeps a lesson closed: the previous one is not done, or it opens on a date. */
export interface PaceLock {
  reason: "order" | "date";
  /** When it opens (`date`); null when the learner has not started the course yet. */
  opensAt: Date | null;
}

const DAY_MS = 86_400_000;

/**
 * The pace part of the entitlement rule, for one learner in one course: which of the course's
 * lessons (in their order) stay closed, and why. The first lesson is always open; so is a lesson
 * the learner already has progress in (a pace staff tighten later never takes a lesson back).
 * - `sequence`: a lesson opens once the one before it is done;
 * - `days`: lesson n opens n × dripDays days after the learner's first progress in the course.
 * Staff are not paced (the caller leaves them out).
 */
export function paceLocks(
  pace: CoursePace,
  lessons: readonly { id: string }[],
  progress: ReadonlyMap<string, { done: boolean; createdAt: Date }>,
  now = new Date(),
): Map<string, PaceLock> {
  const locks = new Map<string, PaceLock>();
  if (pace.dripMode === "open") return locks;
  let start: Date | null = null;
  for (const lesson of lessons) {
    const p = progress.get(lesson.id);
    if (p && (!start || p.createdAt < start)) start = p.createdAt;
  }
  lessons.forEach((lesson, rank) => {
    if (rank === 0 || progress.has(lesson.id)) return;
    if (pace.dripMode === "sequence") {
      const previous = lessons[rank - 1];
      if (!previous || !progress.get(previous.id)?.done)
        locks.set(lesson.id, { reason: "order", opensAt: null });
      return;
    }
    const opensAt = start ? new Date(start.getTime() + rank * pace.dripDays * DAY_MS) : null;
    if (!opensAt || opensAt > now) locks.set(lesson.id, { reason: "date", opensAt });
  });
  return locks;
}

/** Who reads a lesson: staff who manage lessons, and what the reader's plans and purchases open. */
export interface Reader {
  staff: boolean;
  access: Access;
}

/**
 * Whether a lesson opens, or the one reason it does not (each reason has one refusal, `refusal`):
 * - `hidden`: the lesson or its course is inactive (staff only see those): 404;
 * - `premium`: a premium-only lesson of a course the reader's plans and purchases do not open: 403 PREMIUM_REQUIRED;
 * - `pace`: the course's pace keeps it closed (`paceLocks`): 403 LESSON_NOT_OPEN_YET.
 */
export type OpenVerdict =
  | { open: true }
  | { open: false; reason: "hidden" }
  | { open: false; reason: "premium" }
  | { open: false; reason: "pace"; lock: PaceLock };

const OPEN: OpenVerdict = { open: true };

/**
 * "May this reader open this lesson?", the one verb every reader asks (lesson list, overview,
 * progress, review, recordings): staff who manage lessons open everything and are not paced; for
 * everyone else the lesson and its course must be active, their plans and purchases must open it (free flag, or its course opened: `opensCourse`), and
 * the course's pace (`pace`: the lock `paceLocks` gives this lesson, if any) must not keep it closed.
 */
export function mayOpen(
  reader: Reader,
  lesson: { free: boolean; active: boolean; courseId: string },
  course: { active: boolean },
  pace?: PaceLock,
): OpenVerdict {
  if (reader.staff) return OPEN;
  if (!lesson.active || !course.active) return { open: false, reason: "hidden" };
  if (!lesson.free && !opensCourse(reader.access, lesson.courseId)) return { open: false, reason: "premium" };
  if (pace) return { open: false, reason: "pace", lock: pace };
  return OPEN;
}

/** The client error for a closed lesson: one status and code per reason of `mayOpen`. */
export function refusal(verdict: Exclude<OpenVerdict, { open: true }>): AppError {
  switch (verdict.reason) {
    case "hidden":
      return notFound("Lesson");
    case "premium":
      return new AppError(403, "PREMIUM_REQUIRED", "This lesson needs a premium plan");
    case "pace":
      return new AppError(
        403,
        "LESSON_NOT_OPEN_YET",
        verdict.lock.reason === "order"
          ? "This lesson opens once the previous one is done"
          : "This lesson is not open yet in this course's pace",
      );
  }
}
