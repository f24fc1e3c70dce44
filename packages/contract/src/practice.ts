import { z } from "zod";
import { envelope } from "./common";
import { lessonCue } from "./lessons";
import { reviewCard, reviewCounts, reviewItem, reviewRating } from "./review";

/**
 * Exercises made from the lines of the learner's review deck: dictation, cloze and recall. Each
 * result grades its line's FSRS card through the review deck, so practice and review are one
 * schedule; the grading rules are `practice-grading.ts`.
 */

export const EXERCISE_KINDS = ["dictation", "cloze", "recall"] as const;
export const exerciseKind = z.enum(EXERCISE_KINDS);
export type ExerciseKind = z.infer<typeof exerciseKind>;

export const practiceExercise = z
  .object({
    kind: exerciseKind,
    card: reviewCard,
    cue: lessonCue,
    lesson: reviewItem.shape.lesson,
    /** ISO 639-1 code of the language taught (the line's). */
    language: z.string(),
    /** For a cloze: the blanked words (indices in the line's words) and the choices of each blank. */
    cloze: z
      .object({
        blanks: z.array(z.number().int()),
        choices: z.array(z.array(z.string())),
      })
      .nullable(),
  })
  .meta({ id: "PracticeExercise" });
export type PracticeExercise = z.infer<typeof practiceExercise>;

/** A comma-separated list of some of `all` (each once), all of them when absent. */
export function kindsParam<K extends string>(all: readonly K[], what: string) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value) return [...all];
      const kinds = [...new Set(value.split(","))];
      for (const kind of kinds)
        if (!(all as readonly string[]).includes(kind)) {
          ctx.addIssue({ code: "custom", message: `Unknown ${what}: ${kind}` });
          return z.NEVER;
        }
      return kinds as K[];
    });
}

/** Start of "today" in the learner's time zone (ISO); 00:00 UTC when absent. */
const dayStart = z.iso.datetime({ offset: true }).optional();

export const practiceSessionQuery = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(20),
  day_start: dayStart,
  /** The kinds the learner practises (comma-separated); all when absent. */
  kinds: kindsParam(EXERCISE_KINDS, "exercise kind"),
});
export const practiceSessionResponse = envelope(
  z.object({ items: z.array(practiceExercise), counts: reviewCounts }),
);
export type PracticeSessionResponse = z.infer<typeof practiceSessionResponse>;

const resultBase = z.object({
  /** Chosen by the client for this result (the review id of its grade): sent again, it changes nothing. */
  result_id: z.uuid(),
  card_id: z.uuid(),
  /** The learner's setting: accents do not count. */
  ignore_accents: z.boolean().default(false),
  /** When the learner answered (results made offline are sent later); now when absent. */
  answered_at: z.iso.datetime({ offset: true }).optional(),
  day_start: dayStart,
});

const typed = z.string().max(2000);

export const practiceResultBody = z
  .discriminatedUnion("kind", [
    resultBase.extend({ kind: z.literal("dictation"), answer: typed }),
    resultBase.extend({
      kind: z.literal("cloze"),
      blanks: z.array(z.number().int().min(0)).min(1).max(2),
      answers: z.array(z.string().max(200)).min(1).max(2),
    }),
    resultBase.extend({ kind: z.literal("recall_typed"), answer: typed }),
    /** Said aloud and compared by ear: the learner grades it. */
    resultBase.extend({ kind: z.literal("recall_spoken"), rating: reviewRating }),
  ])
  .meta({
    examples: [
      {
        result_id: "0192f1c2-7d1e-7a00-9c1b-5d0e2f3a4b5c",
        card_id: "0192f1c2-7d1e-7a00-9c1b-000000000001",
        kind: "dictation",
        answer: "Je voudrais un café",
      },
    ],
  });
export type PracticeResultBody = z.infer<typeof practiceResultBody>;
export type PracticeResultInput = z.input<typeof practiceResultBody>;

const wordDiff = z.object({
  op: z.enum(["ok", "wrong", "accent", "missing", "extra"]),
  expected: z.string().optional(),
  given: z.string().optional(),
});

export const practiceGrade = z.object({
  rating: reviewRating,
  /** Share of words (or blanks) right, 0 to 1. */
  accuracy: z.number(),
  correct: z.boolean(),
  /** Word-by-word comparison (dictation, typed recall). */
  diff: z.array(wordDiff),
  /** Each blank as graded (cloze). */
  blanks: z.array(
    z.object({ index: z.number().int(), expected: z.string(), given: z.string(), correct: z.boolean() }),
  ),
});
export type PracticeGrade = z.infer<typeof practiceGrade>;

export const practiceResultResponse = envelope(
  z.object({
    grade: practiceGrade,
    card: reviewCard,
    /** True when this result id had been sent already: nothing changed. */
    duplicate: z.boolean(),
    counts: reviewCounts,
  }),
);
export type PracticeResultResponse = z.infer<typeof practiceResultResponse>;
