import {
  COLLECTION_LIMITS,
  cuesToTranscript,
  type LessonBody,
  type LessonColumnBody,
  type LessonCueInput,
  type LessonItem,
  type LessonLink,
  type LessonUpdateBody,
} from "@parlons/contract";
import { and, asc, count, eq, inArray, max } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { lessonCues, lessons } from "../../db/schema/lessons";
import { conflict, limitReached, notFound, validationFailed } from "../../lib/errors";
import { translatedFields, withTranslations } from "../../lib/naming";
import { type CoursePace, mayOpen, type PaceLock, paceLocks } from "../entitlement/policy";
import type { MediaService } from "../media/service";
import type { MediaUrlSigner } from "../media/signing";
import { type CueRow, createLessonCues, cueBoundsProblem, type LineFiles, presentCue } from "./cues";
import { paceLocksIn } from "./pace-locks";
import type { LessonViewer } from "./policy";
import { createLessonProgress, type ProgressRow, presentProgress, progressOf } from "./progress";

export type LessonRow = typeof lessons.$inferSelect;
export type { CueRow, LineFiles } from "./cues";

/** A lesson's texts kept per locale in its `translations` beside the French and English columns. */
const LESSON_TEXTS = ["title", "text"] as const;

/** Lines proposed with "keep" on a lesson that has lines: refused, nothing lost by mistake. */
const linesKept = () =>
  conflict("The lesson has lines: ask to replace them, or remove them first", "LESSON_HAS_LINES");

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
  const progress = createLessonProgress(db);
  const { cuesOf, lineFilesOf, writeCues, applyTranscript } = createLessonCues(db, lineFiles);

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
      ...translatedFields(row.translations, LESSON_TEXTS, ""),
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
        const lesson = await get(courseId, id, tx);
        const problem = cueBoundsProblem(wanted, lesson.audioDuration);
        if (problem) throw problem;
        const lineKeys = await writeCues(id, wanted, tx);
        // lines replace a plain transcript; an empty list leaves it
        if (wanted.length > 0)
          await tx.update(lessons).set({ transcript: "", updatedAt: new Date() }).where(eq(lessons.id, id));
        return { cues: (await cuesOf([id], tx)).get(id) ?? [], lineKeys };
      });
      await lineFiles.deleteFiles(lineKeys);
      return cues;
    },

    /**
     * Writes the lines an alignment placed: "merge" keeps the lines whose text is unchanged (their
     * id, translations and review cards; only their times move), "replace" makes every line new,
     * "keep" writes them only on a lesson without lines (409 LESSON_HAS_LINES otherwise).
     */
    async applyAlignment(
      courseId: string,
      id: string,
      aligned: { text: string; start: number; end: number }[],
      apply: "merge" | "replace" | "keep",
    ): Promise<CueRow[]> {
      const wanted = aligned.map((a) => ({ start: a.start, end: a.end, text: a.text }));
      const { cues, lineKeys } = await db.transaction(async (tx) => {
        await get(courseId, id, tx);
        if (apply === "keep" && ((await cuesOf([id], tx)).get(id)?.length ?? 0) > 0) throw linesKept();
        const lineKeys = await writeCues(id, wanted, tx, apply !== "merge");
        await tx.update(lessons).set({ transcript: "", updatedAt: new Date() }).where(eq(lessons.id, id));
        return { cues: (await cuesOf([id], tx)).get(id) ?? [], lineKeys };
      });
      await lineFiles.deleteFiles(lineKeys);
      return cues;
    },

    /** What the course's publishing check reads of each of its lessons (in the caller's transaction). */
    async readinessOf(courseId: string, tx: DbOrTx = db) {
      return tx
        .select({
          position: lessons.position,
          titleFr: lessons.titleFr,
          titleEn: lessons.titleEn,
          active: lessons.active,
          audioPath: lessons.audioPath,
        })
        .from(lessons)
        .where(eq(lessons.courseId, courseId))
        .orderBy(asc(lessons.position), asc(lessons.createdAt));
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
        db,
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
      return (await paceLocksIn(db, [{ id: courseId, ...pace }], viewer.userId)).get(lessonId);
    },

    paceLocksIn: (courses: readonly ({ id: string } & CoursePace)[], userId: string | null) =>
      paceLocksIn(db, courses, userId),

    async progressOf(userId: string | null, lessonId: string) {
      return (await progressOf(db, userId, [lessonId])).get(lessonId);
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
            translations: withTranslations({}, body, LESSON_TEXTS) ?? {},
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
      const stored = withTranslations({}, body, LESSON_TEXTS)
        ? (await get(courseId, id)).translations
        : undefined;
      if (stored) changes.translations = withTranslations(stored, body, LESSON_TEXTS);
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

    presentProgress,
    ...progress,
  };
}
export type LessonService = ReturnType<typeof createLessonService>;
