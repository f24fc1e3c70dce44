import { CUE_LIMITS, type Locale } from "@parlons/contract";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { lessonCues, lessons } from "../../db/schema/lessons";
import { AppError } from "../../lib/errors";

/** A course's line as the translations file carries it. */
export interface CourseLine {
  id: string;
  lessonId: string;
  lessonPosition: number;
  lessonTitle: string;
  start: number;
  text: string;
  translations: Record<Locale, string>;
}

/** A row of an imported file: the line it names and the translations it gives (a language absent: unchanged). */
export interface LineTranslationsRow {
  /** Where the row is in the file, as its errors name it (`row 3`, `unit abc`). */
  where: string;
  id: string;
  translations: Partial<Record<Locale, string>>;
}

const column = { fr: "translationFr", en: "translationEn", es: "translationEs" } as const;

/**
 * Every line of a course with its translations (export), and translations written back by line id
 * (import): all rows or none, in one transaction; a row naming no line of the course, named twice
 * or too long refuses the whole file with a 422 that lists the rows.
 */
export function createLineTranslations(db: Db) {
  async function linesOf(courseId: string): Promise<CourseLine[]> {
    const rows = await db
      .select({ cue: lessonCues, lesson: lessons })
      .from(lessonCues)
      .innerJoin(lessons, eq(lessons.id, lessonCues.lessonId))
      .where(eq(lessons.courseId, courseId))
      .orderBy(asc(lessons.position), asc(lessons.createdAt), asc(lessonCues.position));
    return rows.map(({ cue, lesson }) => ({
      id: cue.id,
      lessonId: lesson.id,
      lessonPosition: lesson.position,
      lessonTitle: lesson.titleFr || lesson.titleEn,
      start: cue.start,
      text: cue.text,
      translations: { fr: cue.translationFr, en: cue.translationEn, es: cue.translationEs },
    }));
  }

  function problemsOf(rows: readonly LineTranslationsRow[], known: ReadonlySet<string>) {
    const errors: Record<string, string[]> = {};
    const seen = new Map<string, string>();
    for (const row of rows) {
      const problems: string[] = [];
      if (!row.id) problems.push("No line id");
      else if (!known.has(row.id)) problems.push(`Unknown line id ${row.id}: no line of this course has it`);
      else if (seen.has(row.id)) problems.push(`Line ${row.id} is already in ${seen.get(row.id)}`);
      else seen.set(row.id, row.where);
      for (const [lang, text] of Object.entries(row.translations))
        if (text.length > CUE_LIMITS.text)
          problems.push(`The ${lang} text is over ${CUE_LIMITS.text} characters`);
      if (problems.length > 0) errors[row.where] = problems;
    }
    return errors;
  }

  async function apply(courseId: string, rows: readonly LineTranslationsRow[]) {
    return db.transaction(async (tx) => {
      const ids = [...new Set(rows.map((r) => r.id).filter(isUuid))];
      const existing =
        ids.length === 0
          ? []
          : await tx
              .select({ cue: lessonCues })
              .from(lessonCues)
              .innerJoin(lessons, eq(lessons.id, lessonCues.lessonId))
              .where(and(eq(lessons.courseId, courseId), inArray(lessonCues.id, ids)))
              .for("update", { of: lessonCues });
      const byId = new Map(existing.map(({ cue }) => [cue.id, cue]));
      const errors = problemsOf(rows, new Set(byId.keys()));
      const bad = Object.keys(errors).length;
      if (bad > 0)
        throw new AppError(
          422,
          "TRANSLATIONS_INVALID",
          `${bad} row${bad === 1 ? "" : "s"} of the file cannot be imported: nothing was written`,
          errors,
        );
      let updated = 0;
      // lines whose text changed, per language: what the audit log records of an import
      const changed: Record<Locale, number> = { fr: 0, en: 0, es: 0 };
      const now = new Date();
      for (const row of rows) {
        const cue = byId.get(row.id);
        if (!cue) continue;
        const set: Partial<Record<(typeof column)[Locale], string>> = {};
        for (const [lang, text] of Object.entries(row.translations) as [Locale, string][]) {
          const next = text.trim();
          if (cue[column[lang]] === next) continue;
          set[column[lang]] = next;
          changed[lang]++;
        }
        if (Object.keys(set).length === 0) continue;
        await tx
          .update(lessonCues)
          .set({ ...set, updatedAt: now })
          .where(eq(lessonCues.id, row.id));
        updated++;
      }
      return { updated, unchanged: rows.length - updated, changed };
    });
  }

  return { linesOf, apply };
}
export type LineTranslations = ReturnType<typeof createLineTranslations>;

const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
