import {
  GLOSSARY_LIMITS,
  type GlossaryEntry,
  type GlossaryImportResult,
  type GlossaryRowError,
  wordKey,
} from "@parlons/contract";
import { and, asc, count, eq, ilike, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { glossaryEntries } from "../../db/schema/glossary";
import { conflict, notFound } from "../../lib/errors";
import { parseCsv } from "./csv";

type EntryRow = typeof glossaryEntries.$inferSelect;
export interface EntryInput {
  term: string;
  meaning_fr: string;
  meaning_en: string;
  note: string;
}

function presentEntry(row: EntryRow): GlossaryEntry {
  return {
    id: row.id,
    course_id: row.courseId,
    term: row.term,
    meaning_fr: row.meaningFr,
    meaning_en: row.meaningEn,
    note: row.note,
    updated_at: row.updatedAt.toISOString(),
  };
}

const columns = (input: EntryInput) => ({
  term: input.term,
  termKey: wordKey(input.term),
  meaningFr: input.meaning_fr,
  meaningEn: input.meaning_en,
  note: input.note,
});

const HEADER = ["term", "meaning_fr", "meaning_en", "note"];
const ROW_MESSAGES: Record<GlossaryRowError, string> = {
  UNCLOSED_QUOTE: "A quote opened on this line is never closed",
  TOO_MANY_COLUMNS: "More than four columns (term, meaning_fr, meaning_en, note)",
  TERM_MISSING: "No term",
  TERM_TOO_LONG: `The term is longer than ${GLOSSARY_LIMITS.term} characters`,
  MEANING_MISSING: "No meaning, in French or in English",
  MEANING_TOO_LONG: `A meaning or the note is longer than ${GLOSSARY_LIMITS.meaning} characters`,
  DUPLICATE_TERM: "The same term is on an earlier line of the file",
  TOO_MANY_ENTRIES: `The glossary would hold more than ${GLOSSARY_LIMITS.entries} entries`,
};

/** Checks one CSV record as an entry: the entry, or why the line is left out. */
function entryOfRecord(cells: string[]): EntryInput | GlossaryRowError {
  if (cells.length > HEADER.length) return "TOO_MANY_COLUMNS";
  const [term = "", meaningFr = "", meaningEn = "", note = ""] = cells;
  if (!term) return "TERM_MISSING";
  if (term.length > GLOSSARY_LIMITS.term) return "TERM_TOO_LONG";
  if (!meaningFr && !meaningEn) return "MEANING_MISSING";
  if ([meaningFr, meaningEn, note].some((t) => t.length > GLOSSARY_LIMITS.meaning)) return "MEANING_TOO_LONG";
  return { term, meaning_fr: meaningFr, meaning_en: meaningEn, note };
}

/** A course's glossary, which staff write, import and complete from suggestions. */
export function createGlossaryService(deps: { db: Db }) {
  const { db } = deps;
  const ofCourse = (courseId: string) => eq(glossaryEntries.courseId, courseId);

  async function sizeOf(courseId: string): Promise<number> {
    const [row] = await db.select({ n: count() }).from(glossaryEntries).where(ofCourse(courseId));
    return row?.n ?? 0;
  }

  return {
    async list(courseId: string, query: { page: number; pageSize: number; q?: string | undefined }) {
      const where = and(
        ofCourse(courseId),
        query.q
          ? or(ilike(glossaryEntries.term, `%${query.q}%`), ilike(glossaryEntries.meaningFr, `%${query.q}%`))
          : undefined,
      );
      const [total] = await db.select({ n: count() }).from(glossaryEntries).where(where);
      const rows = await db
        .select()
        .from(glossaryEntries)
        .where(where)
        .orderBy(asc(glossaryEntries.termKey))
        .limit(query.pageSize)
        .offset((query.page - 1) * query.pageSize);
      return {
        entries: rows.map(presentEntry),
        pagination: { page: query.page, pageSize: query.pageSize, total: total?.n ?? 0 },
      };
    },

    async create(courseId: string, input: EntryInput): Promise<GlossaryEntry> {
      if ((await sizeOf(courseId)) >= GLOSSARY_LIMITS.entries)
        throw conflict("The glossary is full", "LIMIT_REACHED");
      const [row] = await db
        .insert(glossaryEntries)
        .values({ courseId, ...columns(input) })
        .onConflictDoNothing()
        .returning();
      if (!row) throw conflict("This term is already in the glossary");
      return presentEntry(row);
    },

    async update(courseId: string, id: string, input: EntryInput): Promise<GlossaryEntry> {
      const [taken] = await db
        .select({ id: glossaryEntries.id })
        .from(glossaryEntries)
        .where(and(ofCourse(courseId), eq(glossaryEntries.termKey, wordKey(input.term))));
      if (taken && taken.id !== id) throw conflict("This term is already in the glossary");
      const [row] = await db
        .update(glossaryEntries)
        .set({ ...columns(input), updatedAt: new Date() })
        .where(and(ofCourse(courseId), eq(glossaryEntries.id, id)))
        .returning();
      if (!row) throw notFound("Glossary entry");
      return presentEntry(row);
    },

    async remove(courseId: string, id: string): Promise<void> {
      const [row] = await db
        .delete(glossaryEntries)
        .where(and(ofCourse(courseId), eq(glossaryEntries.id, id)))
        .returning({ id: glossaryEntries.id });
      if (!row) throw notFound("Glossary entry");
    },

    /**
     * Imports a CSV of `term,meaning_fr,meaning_en,note`: each good line creates its entry or
     * replaces the entry of the same term; each bad line is left out and reported with its
     * number and why, the others are imported all the same (in one transaction).
     */
    async importCsv(courseId: string, csv: string): Promise<GlossaryImportResult> {
      const errors: GlossaryImportResult["errors"] = [];
      const report = (line: number, code: GlossaryRowError) =>
        errors.push({ line, code, message: ROW_MESSAGES[code] });
      const wanted = new Map<string, { entry: EntryInput; line: number }>();
      for (const [i, record] of parseCsv(csv).entries()) {
        if ("error" in record) {
          report(record.line, record.error);
          continue;
        }
        if (i === 0 && record.cells[0]?.toLowerCase() === HEADER[0]) continue;
        const entry = entryOfRecord(record.cells);
        if (typeof entry === "string") report(record.line, entry);
        else if (wanted.has(wordKey(entry.term))) report(record.line, "DUPLICATE_TERM");
        else wanted.set(wordKey(entry.term), { entry, line: record.line });
      }
      const result = await db.transaction(async (tx) => {
        const keys = [...wanted.keys()];
        const existing = new Set(
          keys.length === 0
            ? []
            : (
                await tx
                  .select({ key: glossaryEntries.termKey })
                  .from(glossaryEntries)
                  .where(and(ofCourse(courseId), inArray(glossaryEntries.termKey, keys)))
              ).map((r) => r.key),
        );
        const [size] = await tx.select({ n: count() }).from(glossaryEntries).where(ofCourse(courseId));
        let room = GLOSSARY_LIMITS.entries - (size?.n ?? 0);
        let created = 0;
        let updated = 0;
        for (const [key, { entry, line }] of wanted) {
          if (!existing.has(key)) {
            if (room <= 0) {
              report(line, "TOO_MANY_ENTRIES");
              continue;
            }
            room--;
          }
          const values = columns(entry);
          await tx
            .insert(glossaryEntries)
            .values({ courseId, ...values })
            .onConflictDoUpdate({
              target: [glossaryEntries.courseId, glossaryEntries.termKey],
              set: { ...values, updatedAt: sql`now()` },
            });
          if (existing.has(key)) updated++;
          else created++;
        }
        return { created, updated };
      });
      errors.sort((a, b) => a.line - b.line);
      return { ...result, errors };
    },

    /** The entries of these words (keys as `wordKey` makes them), by key. */
    async entriesOf(courseId: string, keys: string[]): Promise<Map<string, EntryRow>> {
      if (keys.length === 0) return new Map();
      const rows = await db
        .select()
        .from(glossaryEntries)
        .where(and(ofCourse(courseId), inArray(glossaryEntries.termKey, keys)));
      return new Map(rows.map((r) => [r.termKey, r]));
    },

    /** Every term key of the course's glossary (suggestions leave them out). */
    async keysOf(courseId: string): Promise<Set<string>> {
      const rows = await db
        .select({ key: glossaryEntries.termKey })
        .from(glossaryEntries)
        .where(ofCourse(courseId));
      return new Set(rows.map((r) => r.key));
    },
  };
}
export type GlossaryService = ReturnType<typeof createGlossaryService>;
