import {
  cuesToTranscript,
  type LessonCue,
  type LessonCueInput,
  parseTranscript,
  transcriptToCues,
} from "@parlons/contract";
import { asc, eq, inArray } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { lessonCues, lessons } from "../../db/schema/lessons";
import { AppError } from "../../lib/errors";

export type CueRow = typeof lessonCues.$inferSelect;

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

export function presentCue(c: CueRow): LessonCue {
  return {
    id: c.id,
    start: c.start,
    end: c.end,
    text: c.text,
    translation_fr: c.translationFr,
    translation_en: c.translationEn,
    translation_es: c.translationEs,
  };
}

/**
 * What a save did to a lesson's lines, for the audit log: counts, and the ids added, removed or
 * changed (not the texts, which a long lesson would make heavy); null when nothing changed.
 */
export function linesChange(
  before: readonly LessonCue[],
  after: readonly LessonCue[],
): {
  before: { lines: number };
  after: { lines: number; added: string[]; removed: string[]; changed: string[] };
} | null {
  const old = new Map(before.map((c) => [c.id, JSON.stringify(c)]));
  const kept = new Set(after.map((c) => c.id));
  const added = after.filter((c) => !old.has(c.id)).map((c) => c.id);
  const removed = before.filter((c) => !kept.has(c.id)).map((c) => c.id);
  const changed = after.filter((c) => old.has(c.id) && old.get(c.id) !== JSON.stringify(c)).map((c) => c.id);
  if (added.length + removed.length + changed.length === 0) return null;
  return { before: { lines: before.length }, after: { lines: after.length, added, removed, changed } };
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

/**
 * Why a list of lines cannot be a lesson's: a line starting before the one before it ends, or
 * ending past the audio (its duration is whole seconds, measured at upload: a second of slack).
 */
export function cueBoundsProblem(
  cues: readonly { start: number; end: number }[],
  duration: number | null,
): AppError | null {
  for (const [i, c] of cues.entries()) {
    const before = cues[i - 1];
    if (before && c.start < before.end - 0.005)
      return new AppError(422, "LINES_OVERLAP", `Line ${i + 1} starts before line ${i} ends`, {
        [`cues.${i}.start`]: [`Starts before line ${i} ends (${before.end} s)`],
      });
    if (duration !== null && c.end > duration + 1)
      return new AppError(422, "LINE_PAST_AUDIO_END", `Line ${i + 1} ends past the end of the audio`, {
        [`cues.${i}.end`]: [`Ends past the end of the audio (${duration} s)`],
      });
  }
  return null;
}

/** A lesson's lines (cues): read in order, rewritten from a list or a timed transcript. */
export function createLessonCues(db: Db, lineFiles: LineFiles) {
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
  async function writeCues(
    lessonId: string,
    wanted: LessonCueInput[],
    tx: DbOrTx,
    /** every line new: none of the lesson's lines is kept (an alignment that replaces them) */
    fresh = false,
  ): Promise<string[]> {
    const existing = (await cuesOf([lessonId], tx)).get(lessonId) ?? [];
    const plan = fresh
      ? {
          keep: new Map<string, number>(),
          insert: wanted.map((_, i) => i),
          remove: existing.map((c) => c.id),
        }
      : planCues(existing, wanted);
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
      // left out: a kept line keeps its Spanish (a new one has none)
      ...(w.translation_es !== undefined && { translationEs: w.translation_es.trim() }),
    });
    const byId = new Map(existing.map((c) => [c.id, c]));
    for (const [id, i] of plan.keep) {
      const w = wanted[i] as LessonCueInput;
      // a line re-imported without translations keeps the ones it had
      const before = byId.get(id) as CueRow;
      const next = fields(w, i);
      if (!w.id && !next.translationFr) next.translationFr = before.translationFr;
      if (!w.id && !next.translationEn) next.translationEn = before.translationEn;
      if (!w.id && !next.translationEs) next.translationEs = before.translationEs;
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

  return { cuesOf, lineFilesOf, writeCues, applyTranscript };
}
