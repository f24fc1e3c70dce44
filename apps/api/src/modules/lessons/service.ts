import {
  COLLECTION_LIMITS,
  type CourseOverview,
  cuesToTranscript,
  type DoneCustomerBody,
  type LessonBody,
  type LessonColumnBody,
  type LessonCue,
  type LessonCueInput,
  type LessonItem,
  type LessonLink,
  type LessonProgress,
  type LessonUpdateBody,
  parseTranscript,
  transcriptToCues,
} from "@parlons/contract";
import { and, asc, count, countDistinct, desc, eq, gte, inArray, max, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { lessonCues, lessonProgress, lessonProgressRequests, lessons } from "../../db/schema/lessons";
import { limitReached, notFound, validationFailed } from "../../lib/errors";
import { type Access, type CoursePace, mayOpen, type PaceLock, paceLocks } from "../entitlement/policy";
import type { MediaService } from "../media/service";
import type { MediaUrlSigner } from "../media/signing";
import type { LessonViewer } from "./policy";

export type LessonRow = typeof lessons.$inferSelect;
type ProgressRow = typeof lessonProgress.$inferSelect;
export type CueRow = typeof lessonCues.$inferSelect;

export function presentCue(c: CueRow): LessonCue {
  return {
    id: c.id,
    start: c.start,
    end: c.end,
    text: c.text,
    translation_fr: c.translationFr,
    translation_en: c.translationEn,
  };
}

/**
 * The rows a new list of lines leaves: a line naming one of the lesson's cues keeps it, a line
 * without id takes over an unclaimed cue with the same text (a re-imported transcript keeps its
 * translations and review cards), the others are new. Pure, so the rule has its own tests.
 */
export function planCues(
  existing: readonly CueRow[],
  wanted: readonly (LessonCueInput & { translation_fr?: string; translation_en?: string })[],
): { keep: Map<string, number>; insert: number[]; remove: string[] } {
  const byId = new Map(existing.map((c) => [c.id, c]));
  const claimed = new Set<string>();
  const keep = new Map<string, number>();
  wanted.forEach((w, i) => {
    if (w.id && byId.has(w.id) && !claimed.has(w.id)) {
      claimed.add(w.id);
      keep.set(w.id, i);
    }
  });
  const insert: number[] = [];
  wanted.forEach((w, i) => {
    if (w.id && keep.get(w.id) === i) return;
    const same = existing.find((c) => !claimed.has(c.id) && c.text === w.text.trim());
    if (same) {
      claimed.add(same.id);
      keep.set(same.id, i);
    } else insert.push(i);
  });
  return { keep, insert, remove: existing.filter((c) => !claimed.has(c.id)).map((c) => c.id) };
}

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

/**
 * Files other modules keep per line (the recordings learners kept, in the review module): their
 * rows go with the line by ON DELETE CASCADE, so their keys are read inside the deleting
 * transaction and the bytes deleted after it commits. Declared here, implemented by the owner of
 * those rows, so that this module neither reads their table nor imports their module.
 */
export interface LineFiles {
  /** Storage keys of the files of these lines, or of every line of these lessons. */
  keysOf(lines: { cueIds?: string[]; lessonIds?: string[] }, tx: DbOrTx): Promise<string[]>;
  /** Deletes the bytes; never throws: a file that cannot be deleted must not undo a staff delete. */
  deleteFiles(keys: string[]): Promise<void>;
}

/** Lessons of a course and each learner's progress in them. */
export function createLessonService(deps: {
  db: Db;
  media: MediaService;
  lineFiles: LineFiles;
  urls: MediaUrlSigner;
  /** Prefix of audio URLs from the settings' audio source (cached there): "" or a CDN base URL. */
  audioBaseUrl: () => Promise<string>;
}) {
  const { db, media, urls, audioBaseUrl, lineFiles } = deps;

  function present(
    row: LessonRow,
    viewer: LessonViewer,
    baseUrl: string,
    progress?: ProgressRow,
    cues: readonly CueRow[] = [],
    pace?: PaceLock,
  ): LessonItem {
    // the course's visibility is the caller's (the list and its writes answer for a visible course)
    const open = mayOpen(viewer, row, { active: true }, pace).open;
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
      drip: pace ? { reason: pace.reason, opens_at: pace.opensAt?.toISOString() ?? null } : null,
      duration: row.audioDuration,
      audio: signed
        ? {
            url: signed.url,
            expires_at: signed.expiresAt.toISOString(),
            duration: row.audioDuration,
            mime_type: "audio/mpeg",
          }
        : null,
      // a lesson with lines shows them in the `[mm:ss]` format to clients that read the transcript
      transcript: open ? (cues.length > 0 ? cuesToTranscript(cues) : row.transcript) : null,
      cues: open ? cues.map(presentCue) : [],
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

  /**
   * The lessons the courses' paces keep closed for a learner (staff are not paced: the caller
   * leaves them out), by lesson id: one query for the paced courses' active lessons, one for the
   * learner's progress in them.
   */
  async function paceLocksIn(
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
      userId,
      rows.map((r) => r.id),
    );
    for (const course of paced) {
      const ofCourse = rows.filter((r) => r.courseId === course.id);
      for (const [id, lock] of paceLocks(course, ofCourse, progress)) locks.set(id, lock);
    }
    return locks;
  }

  async function cuesOf(lessonIds: string[], tx: DbOrTx = db): Promise<Map<string, CueRow[]>> {
    const result = new Map<string, CueRow[]>();
    if (lessonIds.length === 0) return result;
    const rows = await tx
      .select()
      .from(lessonCues)
      .where(inArray(lessonCues.lessonId, lessonIds))
      .orderBy(asc(lessonCues.lessonId), asc(lessonCues.position));
    for (const r of rows) {
      const list = result.get(r.lessonId);
      if (list) list.push(r);
      else result.set(r.lessonId, [r]);
    }
    return result;
  }

  /**
   * Locks the lessons (no line file can be added to them until the caller commits: adding one
   * checks its lesson's row) and returns the keys of their lines' files, or of `cueIds` only.
   */
  async function lineFilesOf(lessonIds: string[], tx: DbOrTx, cueIds?: string[]): Promise<string[]> {
    if (lessonIds.length === 0 || cueIds?.length === 0) return [];
    await tx.select({ id: lessons.id }).from(lessons).where(inArray(lessons.id, lessonIds)).for("update");
    return lineFiles.keysOf(cueIds ? { cueIds } : { lessonIds }, tx);
  }

  /**
   * Makes the lesson's lines `wanted` (in that order), keeping the rows `planCues` keeps; returns
   * the keys of the files of the lines it deleted (for `lineFiles.deleteFiles` after the commit).
   */
  async function writeCues(lessonId: string, wanted: LessonCueInput[], tx: DbOrTx): Promise<string[]> {
    const existing = (await cuesOf([lessonId], tx)).get(lessonId) ?? [];
    const plan = planCues(existing, wanted);
    const released = await lineFilesOf([lessonId], tx, plan.remove);
    if (plan.remove.length > 0) await tx.delete(lessonCues).where(inArray(lessonCues.id, plan.remove));
    const now = new Date();
    const fields = (w: LessonCueInput, position: number) => ({
      position,
      start: w.start,
      end: w.end,
      text: w.text.trim(),
      translationFr: (w.translation_fr ?? "").trim(),
      translationEn: (w.translation_en ?? "").trim(),
    });
    const byId = new Map(existing.map((c) => [c.id, c]));
    for (const [id, i] of plan.keep) {
      const w = wanted[i] as LessonCueInput;
      // a line re-imported without translations keeps the ones it had
      const before = byId.get(id) as CueRow;
      const next = fields(w, i);
      if (!w.id && !next.translationFr) next.translationFr = before.translationFr;
      if (!w.id && !next.translationEn) next.translationEn = before.translationEn;
      await tx
        .update(lessonCues)
        .set({ ...next, updatedAt: now })
        .where(eq(lessonCues.id, id));
    }
    if (plan.insert.length > 0)
      await tx
        .insert(lessonCues)
        .values(plan.insert.map((i) => ({ lessonId, ...fields(wanted[i] as LessonCueInput, i) })));
    return released;
  }

  /**
   * A transcript written through the lesson body: timed lines become the cues and the stored
   * text stays empty; plain text is stored as it is and the lesson has no lines. The lines as
   * the API shows them (`cuesToTranscript`) sent back unchanged change nothing.
   */
  async function applyTranscript(
    lessonId: string,
    transcript: string,
    duration: number | null,
    tx: DbOrTx,
  ): Promise<string[]> {
    const existing = (await cuesOf([lessonId], tx)).get(lessonId) ?? [];
    if (existing.length > 0 && transcript.trim() === cuesToTranscript(existing)) return [];
    const timed = parseTranscript(transcript).length > 0;
    const released = await writeCues(lessonId, transcriptToCues(transcript, duration), tx);
    await tx
      .update(lessons)
      .set({ transcript: timed ? "" : transcript })
      .where(eq(lessons.id, lessonId));
    return released;
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
      const { transcript, ...rest } = changes;
      let [row] = await tx
        .update(lessons)
        .set({ ...rest, updatedAt: new Date() })
        .where(eq(lessons.id, id))
        .returning();
      let lineKeys: string[] = [];
      if (transcript !== undefined && row) {
        lineKeys = await applyTranscript(id, transcript, row.audioDuration, tx);
        row = await get(courseId, id, tx);
      }
      const released = before.audioPath !== row?.audioPath ? await unused([before.audioPath], tx) : [];
      await media.forget(released, tx);
      return { row: row as LessonRow, released, lineKeys };
    });
  }

  return {
    /** A line as the API shows it. */
    presentCue,

    async present(row: LessonRow, viewer: LessonViewer): Promise<LessonItem> {
      const cues = await cuesOf([row.id]);
      return present(row, viewer, await audioBaseUrl(), undefined, cues.get(row.id));
    },
    get,
    cuesOf,

    /** Replaces the lesson's lines (staff editor); returns them as stored. */
    async replaceCues(courseId: string, id: string, wanted: LessonCueInput[]): Promise<CueRow[]> {
      const { cues, lineKeys } = await db.transaction(async (tx) => {
        await get(courseId, id, tx);
        const lineKeys = await writeCues(id, wanted, tx);
        // lines replace a plain transcript; an empty list leaves it
        if (wanted.length > 0)
          await tx.update(lessons).set({ transcript: "", updatedAt: new Date() }).where(eq(lessons.id, id));
        return { cues: (await cuesOf([id], tx)).get(id) ?? [], lineKeys };
      });
      await lineFiles.deleteFiles(lineKeys);
      return cues;
    },

    /** Lessons by id (any course), for the review deck. */
    async findByIds(ids: string[]): Promise<LessonRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(lessons).where(inArray(lessons.id, ids));
    },

    /** Lines by id, each with its lesson id. */
    async cuesByIds(ids: string[]): Promise<CueRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(lessonCues).where(inArray(lessonCues.id, ids));
    },

    /** The audio URL of a lesson for this learner (the caller has checked that it opens). */
    async audioUrlOf(row: LessonRow, userId: string): Promise<string | null> {
      if (!row.audioPath) return null;
      return urls.sign(row.id, userId, row.audioPath, { baseUrl: await audioBaseUrl() }).url;
    },

    /** The course's lessons for the viewer; `pace` (the course's) closes lessons for learners. */
    async list(
      courseId: string,
      viewer: LessonViewer,
      opts: { activeOnly: boolean; pace?: CoursePace },
    ): Promise<LessonItem[]> {
      const rows = await db
        .select()
        .from(lessons)
        .where(and(eq(lessons.courseId, courseId), opts.activeOnly ? eq(lessons.active, true) : undefined))
        .orderBy(asc(lessons.position), asc(lessons.createdAt));
      const progress = await progressOf(
        viewer.userId,
        rows.map((r) => r.id),
      );
      // staff are not paced; learners are, over the lessons they see (the active ones)
      const paced =
        viewer.staff || !opts.pace
          ? new Map<string, PaceLock>()
          : paceLocks(
              opts.pace,
              rows.filter((r) => r.active),
              progress,
            );
      const baseUrl = await audioBaseUrl();
      const cues = await cuesOf(
        rows.filter((r) => mayOpen(viewer, r, { active: true }, paced.get(r.id)).open).map((r) => r.id),
      );
      return rows.map((r) =>
        present(r, viewer, baseUrl, progress.get(r.id), cues.get(r.id), paced.get(r.id)),
      );
    },

    /** Whether the course's pace keeps `lessonId` closed for the viewer (undefined: it does not). */
    async paceLockOf(
      courseId: string,
      pace: CoursePace,
      viewer: LessonViewer,
      lessonId: string,
    ): Promise<PaceLock | undefined> {
      if (viewer.staff) return undefined;
      return (await paceLocksIn([{ id: courseId, ...pace }], viewer.userId)).get(lessonId);
    },

    paceLocksIn,

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
        const created = row as LessonRow;
        if (!body.transcript) return created;
        await applyTranscript(created.id, body.transcript, created.audioDuration, tx);
        return get(courseId, created.id, tx);
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
      const { row, released, lineKeys } = await update(courseId, id, changes);
      await media.deleteFiles(released);
      await lineFiles.deleteFiles(lineKeys);
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
      const { released, lineKeys } = await db.transaction(async (tx) => {
        const row = await get(courseId, id, tx);
        const lineKeys = await lineFilesOf([id], tx);
        await tx.delete(lessons).where(eq(lessons.id, id));
        const paths = await unused([row.audioPath], tx);
        await media.forget(paths, tx);
        return { released: paths, lineKeys };
      });
      await media.deleteFiles(released);
      await lineFiles.deleteFiles(lineKeys);
    },

    /**
     * Deletes every lesson of a course (inside the caller's transaction); returns the freed audio
     * files and the keys of their lines' files, for `deleteFiles` once the caller has committed.
     */
    async deleteAllOfCourse(
      courseId: string,
      tx: DbOrTx,
    ): Promise<{ lessons: number; paths: string[]; lineKeys: string[] }> {
      const ids = await tx.select({ id: lessons.id }).from(lessons).where(eq(lessons.courseId, courseId));
      const lineKeys = await lineFilesOf(
        ids.map((r) => r.id),
        tx,
      );
      const rows = await tx
        .delete(lessons)
        .where(eq(lessons.courseId, courseId))
        .returning({ audioPath: lessons.audioPath });
      const paths = await unused(
        rows.map((r) => r.audioPath),
        tx,
      );
      await media.forget(paths, tx);
      return { lessons: rows.length, paths, lineKeys };
    },

    /** Deletes the bytes of lines' files (keys from `deleteAllOfCourse`); never throws. */
    async deleteLineFiles(keys: string[]): Promise<void> {
      await lineFiles.deleteFiles(keys);
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

    presentProgress,

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
