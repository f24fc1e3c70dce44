import { z } from "zod";
import { envelope } from "./common";
import { CUE_LIMITS } from "./lessons";

/** Languages the aligner knows the syllables and sentence rules of. */
export const ALIGN_LANGUAGES = ["fr", "en", "es"] as const;
export type AlignLanguageCode = (typeof ALIGN_LANGUAGES)[number];

/** Longest script accepted, in characters (a 1000-line lesson of long lines). */
export const ALIGN_SCRIPT_MAX = 200_000;

/**
 * `POST …/lessons/{id}/align`: the lesson's script and what to do with its lines.
 * - `split`: "lines" (one line per cue), "sentences" (every line split into its sentences by the
 *   language's rules) or "auto" (lines, paragraphs split into sentences).
 * - `apply`: "merge" (lines whose text is unchanged keep their id, translations and review
 *   cards, only their times move) or "replace" (every line is new).
 * - `lang`: the language of the script; by default the course's, when the aligner knows it.
 */
export const alignBody = z
  .object({
    script: z.string().max(ALIGN_SCRIPT_MAX),
    split: z.enum(["lines", "sentences", "auto"]).default("auto"),
    apply: z.enum(["merge", "replace"]).default("merge"),
    lang: z.enum(ALIGN_LANGUAGES).optional(),
  })
  .meta({
    examples: [
      { script: "Bonjour.\nComment allez-vous ?\nTrès bien, merci.", split: "lines", apply: "merge" },
    ],
  });
export type AlignBody = z.input<typeof alignBody>;

/**
 * `POST …/lessons/{id}/propose-lines`: audio without a script. Lines are proposed at the pauses,
 * with empty text, to be typed or pasted afterwards; they work at once as "repeat after me" segments.
 * - `apply`: "keep" (the default) refuses when the lesson has lines (409 LESSON_HAS_LINES), so
 *   that nothing is lost by mistake; "replace" makes the proposed lines the lesson's only ones.
 */
export const proposeLinesBody = z
  .object({ apply: z.enum(["keep", "replace"]).default("keep") })
  .meta({ examples: [{ apply: "keep" }] });
export type ProposeLinesBody = z.input<typeof proposeLinesBody>;

export const ALIGNMENT_STATUSES = ["queued", "running", "done", "failed"] as const;
export type AlignmentStatus = (typeof ALIGNMENT_STATUSES)[number];

/** A line as the alignment placed it (its stored id once the lines are written). */
export const alignedLine = z.object({
  id: z.string().nullable(),
  text: z.string(),
  start: z.number(),
  end: z.number(),
  /** 0–1: how well the line's length and boundaries fit the audio. */
  confidence: z.number(),
  /** Worth a look by a person. */
  doubtful: z.boolean(),
});
export type AlignedLine = z.infer<typeof alignedLine>;

/** An alignment of a lesson (or a proposal of lines at its pauses): queued, running (with its progress), done (with its lines) or failed. */
export const alignmentJob = z
  .object({
    id: z.string(),
    lesson_id: z.string(),
    /** "align": a script placed on the audio; "propose": lines proposed at the pauses (no script, empty texts). */
    kind: z.enum(["align", "propose"]),
    status: z.enum(ALIGNMENT_STATUSES),
    /** 0–1 */
    progress: z.number(),
    apply: z.enum(["merge", "replace", "keep"]),
    lang: z.enum(ALIGN_LANGUAGES),
    /** "signal" (audio analysis alone) or "synthesis" (a speech synthesizer as reference); null until done. */
    mode: z.enum(["signal", "synthesis"]).nullable(),
    /** Seconds the alignment took, once done. */
    elapsed: z.number().nullable(),
    lines: z.array(alignedLine).max(CUE_LIMITS.perLesson),
    /** Why it failed: an error code the web translates, and an English message. */
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "AlignmentJob" });
export type AlignmentJob = z.infer<typeof alignmentJob>;

export const alignmentJobResponse = envelope(z.object({ job: alignmentJob }));
export type AlignmentJobResponse = z.infer<typeof alignmentJobResponse>;
export const latestAlignmentResponse = envelope(z.object({ job: alignmentJob.nullable() }));
export type LatestAlignmentResponse = z.infer<typeof latestAlignmentResponse>;
