import {
  COLLECTION_LIMITS,
  type CourseOverview,
  type DoneCustomerBody,
  type LessonBody,
  type LessonColumnBody,
  type LessonItem,
  type LessonLink,
  type LessonProgress,
  type LessonUpdateBody,
  parseTranscript,
} from "@parlons/contract";
import { and, asc, count, countDistinct, desc, eq, gte, inArray, max, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { lessonProgress, lessons } from "../../db/schema";
import { limitReached, notFound, validationFailed } from "../../lib/errors";
import type { Access, EntitlementService } from "../entitlement/service";
import type { MediaService } from "../media/service";
import type { MediaUrlSigner } from "../media/signing";
import type { LessonViewer } from "./policy";

export type LessonRow = typeof lessons.$inferSelect;
type ProgressRow = typeof lessonProgress.$inferSelect;

export interface CourseStats {
  lessons: number;
  free: number;
  duration: number;
}

function presentProgress(p: ProgressRow | undefined): LessonProgress | null {
  if (!p) return null;
  return {
    done: p.done,
    done_at: p.doneAt?.toISOString() ?? null,
    last_position: p.lastPosition,
    play_count: p.playCount,
    updated_at: p.updatedAt.toISOString(),
  };
}

/** Lessons of a course and each learner's progress in them. */
export function createLessonService(deps: {
  db: Db;
  media: MediaService;
  entitlement: EntitlementService;
  urls: MediaUrlSigner;
  /** Prefix of audio URLs from the settings' audio source (cached there): "" or a CDN base URL. */
  audioBaseUrl: () => Promise<string>;
}) {
  const { db, media, entitlement, urls, audioBaseUrl } = deps;

  function present(
    row: LessonRow,
    viewer: LessonViewer,
    baseUrl: string,
    progress?: ProgressRow,
  ): LessonItem {
    const open = entitlement.canOpen(viewer.access, row);
    const signed =
      open && row.audioPath ? urls.sign(row.id, viewer.userId, row.audioPath, { baseUrl }) : null;
    return {
      id: row.id,
      course_id: row.courseId,
      position: row.position,
      title_fr: row.titleFr,
      title_en: row.titleEn,
      text_fr: row.textFr,
      text_en: row.textEn,
      free: row.free,
      active: row.active,
      locked: !open,
      duration: row.audioDuration,
      audio: signed
        ? {
            url: signed.url,
            expires_at: signed.expiresAt.toISOString(),
            duration: row.audioDuration,
            mime_type: "audio/mpeg",
          }
        : null,
      transcript: open ? row.transcript : null,
      cues: open ? parseTranscript(row.transcript) : [],
      links: open ? row.links.map((l) => ({ label: l.label, url: l.url })) : [],
      progress: presentProgress(progress),
      ...(viewer.staff ? { audio_path: row.audioPath } : {}),
      created_at: row.createdAt.toISOString(),
      updated_at: row.updatedAt.toISOString(),
    };
  }

  async function progressOf(userId: string | null, lessonIds: string[]): Promise<Map<string, ProgressRow>> {
    if (!userId || lessonIds.length === 0) return new Map();
    const rows = await db
      .select()
      .from(lessonProgress)
      .where(and(eq(lessonProgress.userId, userId), inArray(lessonProgress.lessonId, lessonIds)));
    return new Map(rows.map((r) => [r.lessonId, r]));
  }

  /** `audio` as the form sends it (`path` or `path:duration`): must be an uploaded MP3. */
  async function resolveAudio(value: string | null, tx: DbOrTx) {
    if (value === null) return { audioPath: null, audioDuration: null };
    const path = value.split(":")[0] as string;
    const row = await media.findByPath(path, tx);
    if (row?.type !== "audio") throw validationFailed({ audio: ["Upload the MP3 file first"] });
    return { audioPath: row.path, audioDuration: row.duration };
  }

  async function get(courseId: string, id: string, tx: DbOrTx = db): Promise<LessonRow> {
    const [row] = await tx
      .select()
      .from(lessons)
      .where(and(eq(lessons.id, id), eq(lessons.courseId, courseId)));
    if (!row) throw notFound("Lesson");
    return row;
  }

  /** Files of `paths` that no lesson uses any more (except `exceptLesson`). */
  async function unused(paths: (string | null)[], tx: DbOrTx = db): Promise<string[]> {
    const wanted = [...new Set(paths.filter((p): p is string => Boolean(p)))];
    if (wanted.length === 0) return [];
    const used = await tx
      .select({ path: lessons.audioPath })
      .from(lessons)
      .where(inArray(lessons.audioPath, wanted));
    const still = new Set(used.map((u) => u.path));
    return wanted.filter((p) => !still.has(p));
  }

  async function update(courseId: string, id: string, changes: Partial<typeof lessons.$inferInsert>) {
    return db.transaction(async (tx) => {
      const before = await get(courseId, id, tx);
      const [row] = await tx
        .update(lessons)
        .set({ ...changes, updatedAt: new Date() })
        .where(eq(lessons.id, id))
        .returning();
      const released = before.audioPath !== row?.audioPath ? await unused([before.audioPath], tx) : [];
      await media.forget(released, tx);
      return { row: row as LessonRow, released };
    });
  }

  return {
    async present(row: LessonRow, viewer: LessonViewer): Promise<LessonItem> {
      return present(row, viewer, await audioBaseUrl());
    },
    get,

    async list(courseId: string, viewer: LessonViewer, opts: { activeOnly: boolean }): Promise<LessonItem[]> {
      const rows = await db
        .select()
        .from(lessons)
        .where(and(eq(lessons.courseId, courseId), opts.activeOnly ? eq(lessons.active, true) : undefined))
        .orderBy(asc(lessons.position), asc(lessons.createdAt));
      const progress = await progressOf(
        viewer.userId,
        rows.map((r) => r.id),
      );
      const baseUrl = await audioBaseUrl();
      return rows.map((r) => present(r, viewer, baseUrl, progress.get(r.id)));
    },

    async progressOf(userId: string | null, lessonId: string) {
      return (await progressOf(userId, [lessonId])).get(lessonId);
    },

    async create(courseId: string, body: LessonBody): Promise<LessonRow> {
      return db.transaction(async (tx) => {
        const [held] = await tx.select({ n: count() }).from(lessons).where(eq(lessons.courseId, courseId));
        if ((held?.n ?? 0) >= COLLECTION_LIMITS.lessonsPerCourse)
          throw limitReached("A course", COLLECTION_LIMITS.lessonsPerCourse);
        const audio = await resolveAudio(body.audio, tx);
        let position = body.position;
        if (position === undefined) {
          const [last] = await tx
            .select({ max: max(lessons.position) })
            .from(lessons)
            .where(eq(lessons.courseId, courseId));
          position = (last?.max ?? -1) + 1;
        }
        const [row] = await tx
          .insert(lessons)
          .values({
            courseId,
            position,
            titleFr: body.title_fr,
            titleEn: body.title_en,
            textFr: body.text_fr,
            textEn: body.text_en,
            ...audio,
            transcript: body.transcript,
            links: body.links,
            free: body.free,
            active: body.active,
          })
          .returning();
        return row as LessonRow;
      });
    },

    /** Partial update; a replaced audio file is deleted once nothing uses it. */
    async update(courseId: string, id: string, body: LessonUpdateBody): Promise<LessonRow> {
      const changes: Partial<typeof lessons.$inferInsert> = {
        titleFr: body.title_fr,
        titleEn: body.title_en,
        textFr: body.text_fr,
        textEn: body.text_en,
        transcript: body.transcript,
        links: body.links,
        free: body.free,
        active: body.active,
        position: body.position,
      };
      if (body.audio !== undefined) Object.assign(changes, await resolveAudio(body.audio, db));
      const { row, released } = await update(courseId, id, changes);
      await media.deleteFiles(released);
      return row;
    },

    async updateColumn(courseId: string, id: string, body: LessonColumnBody): Promise<LessonRow> {
      const { row } = await update(courseId, id, { [body.column]: body.value });
      return row;
    },

    async updateLinks(courseId: string, id: string, links: LessonLink[]): Promise<LessonRow> {
      const { row } = await update(courseId, id, { links });
      return row;
    },

    async delete(courseId: string, id: string): Promise<void> {
      const released = await db.transaction(async (tx) => {
        const row = await get(courseId, id, tx);
        await tx.delete(lessons).where(eq(lessons.id, id));
        const paths = await unused([row.audioPath], tx);
        await media.forget(paths, tx);
        return paths;
      });
      await media.deleteFiles(released);
    },

    /** Deletes every lesson of a course (inside the caller's transaction); returns the freed files. */
    async deleteAllOfCourse(courseId: string, tx: DbOrTx): Promise<{ lessons: number; paths: string[] }> {
      const rows = await tx
        .delete(lessons)
        .where(eq(lessons.courseId, courseId))
        .returning({ audioPath: lessons.audioPath });
      const paths = await unused(
        rows.map((r) => r.audioPath),
        tx,
      );
      await media.forget(paths, tx);
      return { lessons: rows.length, paths };
    },

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
     * (user, lesson): concurrent saves never create two rows, and the last write wins.
     */
    async saveProgress(userId: string, lesson: LessonRow, body: DoneCustomerBody): Promise<ProgressRow> {
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
    },

    presentProgress,

    /** A learner's progress in each of the given courses (active lessons only). */
    async overviews(
      courseIds: string[],
      userId: string,
      access: Access,
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
            next ??= {
              id: lesson.id,
              position: lesson.position,
              title_fr: lesson.titleFr,
              title_en: lesson.titleEn,
              locked: !entitlement.canOpen(access, lesson),
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

    async doneSince(userId: string, since: Date): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(lessonProgress)
        .where(
          and(
            eq(lessonProgress.userId, userId),
            eq(lessonProgress.done, true),
            gte(lessonProgress.doneAt, since),
          ),
        );
      return row?.n ?? 0;
    },
  };
}
export type LessonService = ReturnType<typeof createLessonService>;
