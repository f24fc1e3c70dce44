import { z } from "zod";
import { envelope } from "./common";
import { lessonCue } from "./lessons";
import { fallbackChain, LOCALES, type Locale } from "./locales";
import { kindsParam } from "./practice";
import { reviewCard, reviewCounts, reviewItem, reviewRating } from "./review";

/**
 * The hands-free daily session (Pimsleur's way): the learner's due and new lines, each played as
 * an echo (the line, a pause to repeat it, the line again) or a recall (a prompt in the learner's
 * language, a pause to say the line, the line). The app plays it through its player; the server
 * also renders it as one MP3. Both follow the steps given here, and the grades go to the lines'
 * review cards.
 */

export const HANDS_FREE_KINDS = ["echo", "recall"] as const;
export const handsFreeKind = z.enum(HANDS_FREE_KINDS);
export type HandsFreeKind = z.infer<typeof handsFreeKind>;

/** Silence between two items, in seconds. */
export const HANDS_FREE_GAP = 1;

const tenths = (seconds: number) => Math.round(seconds * 10) / 10;

/** The pause to repeat a line after hearing it: about 1.2 times its length, 1 s at least. */
export function echoPause(lineSeconds: number): number {
  return tenths(Math.max(1, 1.2 * lineSeconds));
}

/** The pause to say a line from its prompt: the echo's pause and 2 s to remember it. */
export function recallPause(lineSeconds: number): number {
  return tenths(echoPause(lineSeconds) + 2);
}

export const handsFreeStep = z.discriminatedUnion("type", [
  /** The line's segment of the lesson audio (cue.start to cue.end). */
  z.object({ type: z.literal("line") }),
  /** The prompt, spoken where a voice exists for its language, shown otherwise. */
  z.object({ type: z.literal("prompt") }),
  z.object({ type: z.literal("pause"), seconds: z.number() }),
]);
export type HandsFreeStep = z.infer<typeof handsFreeStep>;

/** The steps of an item: echo = line, pause, line; recall = prompt, pause, line. */
export function handsFreeSteps(kind: HandsFreeKind, lineSeconds: number): HandsFreeStep[] {
  return kind === "echo"
    ? [{ type: "line" }, { type: "pause", seconds: echoPause(lineSeconds) }, { type: "line" }]
    : [{ type: "prompt" }, { type: "pause", seconds: recallPause(lineSeconds) }, { type: "line" }];
}

/** The line's translation for a reader of `lang` (by the fallback rule) and the language it is in. */
export function promptOf(
  cue: { translation_fr: string; translation_en: string },
  lang: Locale,
): { text: string; language: Locale } | null {
  const texts: Partial<Record<Locale, string>> = { fr: cue.translation_fr, en: cue.translation_en };
  for (const l of fallbackChain(lang)) {
    const text = texts[l]?.trim();
    if (text) return { text, language: l };
  }
  return null;
}

export const handsFreeItem = z
  .object({
    kind: handsFreeKind,
    card: reviewCard,
    cue: lessonCue,
    lesson: reviewItem.shape.lesson,
    /** ISO 639-1 code of the language taught (the line's). */
    language: z.string(),
    /** A recall's prompt: the translation in the learner's language (or the nearest one there is). */
    prompt: z.object({ text: z.string(), language: z.enum(LOCALES) }).nullable(),
    steps: z.array(handsFreeStep),
  })
  .meta({ id: "HandsFreeItem" });
export type HandsFreeItem = z.infer<typeof handsFreeItem>;

/** Start of "today" in the learner's time zone (ISO); 00:00 UTC when absent. */
const dayStart = z.iso.datetime({ offset: true }).optional();

export const handsFreeQuery = z.object({
  limit: z.coerce.number().int().min(1).max(50).default(20),
  day_start: dayStart,
  /** The learner's language: the recall prompts are in it. */
  lang: z.enum(LOCALES).default("fr"),
  /**
   * The learner's setting: which kinds of item the session has. With both, a line still being
   * learned is echoed and a line in review is recalled; a line with no translation is echoed.
   */
  kinds: kindsParam(HANDS_FREE_KINDS, "item kind"),
});
export type HandsFreeQuery = z.infer<typeof handsFreeQuery>;

export const handsFreePlan = z.object({
  items: z.array(handsFreeItem),
  counts: reviewCounts,
  /** Silence between two items, in seconds. */
  gap: z.number(),
  /** Length of the session without its spoken prompts, in seconds. */
  seconds: z.number(),
});
export type HandsFreePlan = z.infer<typeof handsFreePlan>;
export const handsFreePlanResponse = envelope(handsFreePlan);
export type HandsFreePlanResponse = z.infer<typeof handsFreePlanResponse>;

/**
 * How the server rendered the session's MP3: `speech` with the recall prompts spoken (espeak-ng),
 * `echo_only` where the server has no synthesizer (every item is then an echo).
 */
export const HANDS_FREE_AUDIO_MODES = ["speech", "echo_only"] as const;
export type HandsFreeAudioMode = (typeof HANDS_FREE_AUDIO_MODES)[number];
/** Response headers of the session's MP3: its mode, and how many items it holds. */
export const HANDS_FREE_MODE_HEADER = "x-session-mode";
export const HANDS_FREE_ITEMS_HEADER = "x-session-items";

export const handsFreeGradesBody = z
  .object({
    grades: z
      .array(
        z.object({
          /** Chosen by the client for this grade (the review id): sent again, it changes nothing. */
          grade_id: z.uuid(),
          card_id: z.uuid(),
          rating: reviewRating,
        }),
      )
      .min(1)
      .max(50)
      .refine((grades) => new Set(grades.map((g) => g.card_id)).size === grades.length, {
        message: "Each card is graded once",
      })
      .refine((grades) => new Set(grades.map((g) => g.grade_id)).size === grades.length, {
        message: "Each grade has its own id",
      }),
    /** When the session ended (grades sent later count then); now when absent. */
    answered_at: z.iso.datetime({ offset: true }).optional(),
    day_start: dayStart,
  })
  .meta({
    examples: [
      {
        grades: [
          {
            grade_id: "0192f1c2-7d1e-7a00-9c1b-5d0e2f3a4b5c",
            card_id: "0192f1c2-7d1e-7a00-9c1b-000000000001",
            rating: 3,
          },
        ],
      },
    ],
  });
export type HandsFreeGradesBody = z.infer<typeof handsFreeGradesBody>;

export const handsFreeGradesResponse = envelope(
  z.object({
    graded: z.array(
      z.object({
        card: reviewCard,
        /** True when this grade id had been sent already: nothing changed. */
        duplicate: z.boolean(),
      }),
    ),
    counts: reviewCounts,
  }),
);
export type HandsFreeGradesResponse = z.infer<typeof handsFreeGradesResponse>;
