import { sql } from "drizzle-orm";
import { doublePrecision, index, jsonb, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { lessons } from "./lessons";

/** A line as the alignment placed it (`id`: the stored line once written). */
export interface AlignedLineValue {
  id: string | null;
  text: string;
  start: number;
  end: number;
  confidence: number;
  doubtful: boolean;
}

/**
 * Alignments of a lesson's script to its audio, and proposals of lines at the pauses of audio
 * without a script (the alignment module's): queued by the route,
 * run by the alignment job in a worker thread, their progress and result kept here so that any
 * API process can answer the staff member polling. At most one queued or running per lesson.
 */
export const alignmentJobs = pgTable(
  "alignment_jobs",
  {
    id: id(),
    lessonId: uuid("lesson_id")
      .notNull()
      .references(() => lessons.id, { onDelete: "cascade" }),
    status: text("status").$type<"queued" | "running" | "done" | "failed">().notNull().default("queued"),
    /** "align": the script placed on the audio; "propose": lines proposed at the pauses, text empty (no script). */
    kind: text("kind").$type<"align" | "propose">().notNull().default("align"),
    /** align: "merge" or "replace"; propose: "replace", or "keep" (refused when the lesson has lines). */
    apply: text("apply").$type<"merge" | "replace" | "keep">().notNull(),
    lang: text("lang").$type<"fr" | "en" | "es">().notNull(),
    /** The script's lines, in order. */
    script: jsonb("script").$type<string[]>().notNull(),
    progress: doublePrecision("progress").notNull().default(0),
    /** once done */
    mode: text("mode").$type<"signal" | "synthesis">(),
    elapsedMs: doublePrecision("elapsed_ms"),
    lines: jsonb("lines").$type<AlignedLineValue[]>().notNull().default([]),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    createdAt: createdAt(),
    /** Moves with every progress report: a running job whose row stops moving was lost with its process. */
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("alignment_jobs_one_active_idx")
      .on(t.lessonId)
      .where(sql`${t.status} in ('queued', 'running')`),
    index("alignment_jobs_lesson_idx").on(t.lessonId, t.createdAt),
    index("alignment_jobs_status_idx").on(t.status, t.createdAt),
  ],
);
