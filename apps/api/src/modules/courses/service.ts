import type { CourseBody, CourseItem, CourseListQuery, CourseUpdateBody } from "@parlons/contract";
import { and, asc, desc, eq, inArray, isNotNull, lte, type SQL } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { containing, pageOf } from "../../db/paginate";
import { courses } from "../../db/schema/courses";
import type { ChangeBus } from "../../lib/change-bus";
import { conflict, notFound, validationFailed } from "../../lib/errors";
import { createKeptValues } from "../../lib/kept-values";
import { namingColumns, namingFields, namingTranslations } from "../../lib/naming";
import { assertSlugFree, chooseSlug } from "../../lib/unique-slug";
import type { LessonService } from "../lessons/service";
import type { MediaService } from "../media/service";
import { notPublishable, publishProblems } from "./publishing";

export type CourseRow = typeof courses.$inferSelect;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === "23505" || e?.cause?.code === "23505";
}

/** Courses: the catalogue, its lists and their lesson counts. */
export function createCourseService(deps: {
  db: Db;
  lessons: LessonService;
  media: MediaService;
  changes: ChangeBus;
}) {
  const { db, lessons, media } = deps;
  /**
   * The staff list's pages by query, kept until courses or lessons change (`courses`: every write
   * of either announces it): a page costs a sort and a count of its filter, and lesson counts.
   */
  const pages = createKeptValues<{
    courses: CourseItem[];
    pagination: { page: number; pageSize: number; total: number };
  }>({
    changes: deps.changes,
    droppedBy: ["courses"],
  });

  async function present(rows: CourseRow[]): Promise<CourseItem[]> {
    const stats = await lessons.statsByCourse(rows.map((r) => r.id));
    return rows.map((r) => {
      const s = stats.get(r.id);
      return {
        id: r.id,
        slug: r.slug,
        ...namingFields(r),
        target_language: r.targetLanguage,
        level: r.level,
        cover: r.coverPath,
        cover_url: r.coverPath ? `/api/v1/media/${r.coverPath}` : null,
        active: r.active,
        publish_at: r.publishAt?.toISOString() ?? null,
        popular: r.popular,
        position: r.position,
        drip_mode: r.dripMode,
        drip_days: r.dripDays,
        lessons_count: s?.lessons ?? 0,
        free_lessons_count: s?.free ?? 0,
        total_duration: s?.duration ?? 0,
        created_at: r.createdAt.toISOString(),
        updated_at: r.updatedAt.toISOString(),
      };
    });
  }

  async function presentOne(row: CourseRow): Promise<CourseItem> {
    return (await present([row]))[0] as CourseItem;
  }

  async function resolveCover(value: string | null, tx: DbOrTx): Promise<string | null> {
    if (value === null) return null;
    const row = await media.findByPath(value, tx);
    if (row?.type !== "image") throw validationFailed({ cover: ["Upload the image first"] });
    return row.path;
  }

  async function get(id: string, tx: DbOrTx = db): Promise<CourseRow> {
    const [row] = await tx.select().from(courses).where(eq(courses.id, id));
    if (!row) throw notFound("Course");
    return row;
  }

  /** Refuses (422) a course that may not go live, read in `tx`. */
  async function assertPublishable(row: CourseRow, tx: DbOrTx): Promise<void> {
    const problems = publishProblems(row, await lessons.readinessOf(row.id, tx));
    if (problems) throw notPublishable(problems);
  }

  async function listNow(query: Partial<CourseListQuery> & { page: number; pageSize: number }) {
    const filters: (SQL | undefined)[] = [];
    filters.push(containing(query.search, [courses.titleFr, courses.titleEn, courses.slug]));
    if (query.active) filters.push(eq(courses.active, query.active === "true"));
    if (query.popular) filters.push(eq(courses.popular, query.popular === "true"));
    if (query.target_language) filters.push(eq(courses.targetLanguage, query.target_language));
    if (query.level) filters.push(eq(courses.level, query.level));
    const where = and(...filters);
    const { rows, pagination } = await pageOf(db, query, courses, where, [
      asc(courses.position),
      desc(courses.createdAt),
      asc(courses.id),
    ]);
    return { courses: await present(rows), pagination };
  }

  return {
    present,
    presentOne,
    get,

    /** The courses of these ids that exist, in the order of `ids` (one query). */
    async findByIds(ids: string[]): Promise<CourseRow[]> {
      if (ids.length === 0) return [];
      const rows = await db.select().from(courses).where(inArray(courses.id, ids));
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },

    /** The live courses (active), with their titles and how many lessons, free ones among them, each has. */
    async live(): Promise<
      { id: string; title_fr: string; title_en: string; lessons: number; free: number }[]
    > {
      const rows = await db
        .select({ id: courses.id, titleFr: courses.titleFr, titleEn: courses.titleEn })
        .from(courses)
        .where(eq(courses.active, true))
        .orderBy(asc(courses.position), asc(courses.id));
      const stats = await lessons.statsByCourse(rows.map((r) => r.id));
      return rows.map((r) => ({
        id: r.id,
        title_fr: r.titleFr,
        title_en: r.titleEn,
        lessons: stats.get(r.id)?.lessons ?? 0,
        free: stats.get(r.id)?.free ?? 0,
      }));
    },

    /** By id or slug. */
    async findByRef(ref: string): Promise<CourseRow | undefined> {
      const [row] = await db
        .select()
        .from(courses)
        .where(UUID.test(ref) ? eq(courses.id, ref) : eq(courses.slug, ref.toLowerCase()));
      return row;
    },

    async list(query: Partial<CourseListQuery> & { page: number; pageSize: number }) {
      return pages.get(JSON.stringify(query), () => listNow(query));
    },

    async create(body: CourseBody): Promise<CourseRow> {
      try {
        return await db.transaction(async (tx) => {
          const slug = await chooseSlug(tx, courses, body.slug, body.title_fr, "course");
          const [row] = await tx
            .insert(courses)
            .values({
              slug,
              ...namingColumns(body),
              translations: namingTranslations({}, body) ?? {},
              targetLanguage: body.target_language,
              level: body.level,
              coverPath: await resolveCover(body.cover, tx),
              active: body.active,
              popular: body.popular,
              position: body.position,
              dripMode: body.drip_mode,
              dripDays: body.drip_days,
            })
            .returning();
          return row as CourseRow;
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict("This slug is taken");
        throw err;
      }
    },

    /** Partial update; a replaced cover is deleted. */
    async update(id: string, body: CourseUpdateBody): Promise<CourseRow> {
      try {
        const { row, released } = await db.transaction(async (tx) => {
          const before = await get(id, tx);
          // the form's "Published" switch publishes as the publish route does: checked first
          const publishing = body.active === true && !before.active;
          if (publishing) await assertPublishable(before, tx);
          const changes: Partial<typeof courses.$inferInsert> = {
            ...namingColumns(body),
            translations: namingTranslations(before.translations, body),
            targetLanguage: body.target_language,
            level: body.level,
            active: body.active,
            popular: body.popular,
            position: body.position,
            dripMode: body.drip_mode,
            dripDays: body.drip_days,
            updatedAt: new Date(),
            ...(publishing ? { publishAt: null } : {}),
          };
          if (body.slug !== undefined && body.slug !== before.slug) {
            await assertSlugFree(tx, courses, body.slug);
            changes.slug = body.slug;
          }
          if (body.cover !== undefined) changes.coverPath = await resolveCover(body.cover, tx);
          const [updated] = await tx.update(courses).set(changes).where(eq(courses.id, id)).returning();
          const released =
            body.cover !== undefined && before.coverPath && before.coverPath !== changes.coverPath
              ? [before.coverPath]
              : [];
          await media.forget(released, tx);
          return { row: updated as CourseRow, released };
        });
        await media.deleteFiles(released);
        return row;
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict("This slug is taken");
        throw err;
      }
    },

    /**
     * Publishes the course now, or schedules it for `at` when that is later than `now` (it stays
     * a draft until the publish job makes it active then); refused 422 when it may not go live, 409
     * when scheduling a course already published.
     */
    async publish(id: string, at: Date | null, now = new Date()) {
      return db.transaction(async (tx) => {
        const before = await get(id, tx);
        await assertPublishable(before, tx);
        const scheduled = at !== null && at.getTime() > now.getTime();
        if (scheduled && before.active) throw conflict("The course is already published: unpublish it first");
        const [row] = await tx
          .update(courses)
          .set(scheduled ? { publishAt: at } : { active: true, publishAt: null })
          .where(eq(courses.id, id))
          .returning();
        return { before, row: row as CourseRow, scheduled };
      });
    },

    /** Back to a draft (a scheduled publication is called off too). */
    async unpublish(id: string) {
      const before = await get(id);
      const [row] = await db
        .update(courses)
        .set({ active: false, publishAt: null })
        .where(eq(courses.id, id))
        .returning();
      return { before, row: row as CourseRow };
    },

    /**
     * The scheduled courses whose time has come (the publish job): each checked again, then made
     * active (or, no longer publishable, left a draft with its schedule called off), claimed by a
     * conditional write so that one process does it, and `onEach` called in that transaction (the
     * audit entry). Announces the change when any course changed.
     */
    async publishDue(
      now: Date,
      onEach: (
        done: { row: CourseRow; scheduledFor: Date; problems: ReturnType<typeof publishProblems> },
        tx: DbOrTx,
      ) => Promise<void>,
    ): Promise<number> {
      const due = await db
        .select()
        .from(courses)
        .where(and(isNotNull(courses.publishAt), lte(courses.publishAt, now)));
      let changed = 0;
      for (const course of due) {
        const scheduledFor = course.publishAt as Date;
        await db.transaction(async (tx) => {
          const problems = publishProblems(course, await lessons.readinessOf(course.id, tx));
          const [row] = await tx
            .update(courses)
            .set(problems ? { publishAt: null } : { active: true, publishAt: null })
            .where(and(eq(courses.id, course.id), eq(courses.publishAt, scheduledFor)))
            .returning();
          if (!row) return; // another process took it, or staff changed it meanwhile
          changed += 1;
          await onEach({ row, scheduledFor, problems }, tx);
        });
      }
      if (changed > 0) deps.changes.publish("courses");
      return changed;
    },

    async setPopular(id: string, popular: boolean | undefined): Promise<CourseRow> {
      const before = await get(id);
      const [row] = await db
        .update(courses)
        .set({ popular: popular ?? !before.popular, updatedAt: new Date() })
        .where(eq(courses.id, id))
        .returning();
      return row as CourseRow;
    },

    /**
     * Deletes the course, its lessons, their progress and their files. Refused (409) while
     * learners have progress in it, unless forced.
     */
    async delete(id: string, force: boolean) {
      await get(id);
      const learners = await lessons.learnersOf(id);
      if (learners > 0 && !force) {
        throw conflict(
          `${learners} learner(s) have progress in this course: delete with force=true to remove it anyway`,
          "COURSE_IN_USE",
        );
      }
      const { removed, paths, lineKeys } = await db.transaction(async (tx) => {
        const course = await get(id, tx);
        const removedLessons = await lessons.deleteAllOfCourse(id, tx);
        await tx.delete(courses).where(eq(courses.id, id));
        const files = [...removedLessons.paths, ...(course.coverPath ? [course.coverPath] : [])];
        if (course.coverPath) await media.forget([course.coverPath], tx);
        return { removed: removedLessons.lessons, paths: files, lineKeys: removedLessons.lineKeys };
      });
      const deletedFiles = await media.deleteFiles(paths);
      // the recordings learners kept of the course's lines
      await lessons.deleteLineFiles(lineKeys);
      return { id, deleted_lessons: removed, deleted_files: deletedFiles };
    },
  };
}

export type CourseService = ReturnType<typeof createCourseService>;
