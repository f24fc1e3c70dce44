import { z } from "zod";
import { envelope } from "./common";
import { lessonCue } from "./lessons";

/** Spaced review of lesson lines (FSRS through ts-fsrs on the server). */

/** Again, Hard, Good, Easy: ts-fsrs's grades (keys 1 to 4 of the review page). */
export const REVIEW_RATINGS = [1, 2, 3, 4] as const;
export const reviewRating = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
export type ReviewRating = z.infer<typeof reviewRating>;

export const REVIEW_STATES = ["new", "learning", "review", "relearning"] as const;
export const reviewState = z.enum(REVIEW_STATES);
export type ReviewState = z.infer<typeof reviewState>;

export const reviewCard = z
  .object({
    id: z.string(),
    state: reviewState,
    /** When the card is next due (ISO). */
    due: z.string(),
    reps: z.number().int(),
    lapses: z.number().int(),
    last_review: z.string().nullable(),
  })
  .meta({ id: "ReviewCard" });
export type ReviewCard = z.infer<typeof reviewCard>;

/** The word of a word card ("add to my words"), reviewed with the line it was tapped in. */
export const reviewWord = z.object({
  word: z.string(),
  meaning_fr: z.string(),
  meaning_en: z.string(),
});
export type ReviewWord = z.infer<typeof reviewWord>;

/** A card to review now: the line, its lesson, and the lesson's audio to play the line's segment from. */
export const reviewItem = z.object({
  card: reviewCard,
  cue: lessonCue,
  lesson: z.object({
    id: z.string(),
    course_id: z.string(),
    title_fr: z.string(),
    title_en: z.string(),
    /** Signed, short-lived audio URL of the lesson; null when the lesson has no audio. */
    audio_url: z.string().nullable(),
  }),
  /** Seconds until the card is due again if graded now: Again, Hard, Good, Easy (the buttons show them). */
  next_intervals: z.array(z.number().int()).length(4),
  /** Set on a word card: the word to recall, the line being its context. */
  word: reviewWord.optional(),
});
export type ReviewItem = z.infer<typeof reviewItem>;

/** New cards a learner meets per day at most (Anki's default): the others wait for the next days. */
export const NEW_CARDS_PER_DAY = 20;

/** Start of "today" in the learner's time zone (ISO); 00:00 UTC when absent. */
const dayStart = z.iso.datetime({ offset: true }).optional();

export const reviewCounts = z.object({
  /** Cards never reviewed that the learner may start today (at most NEW_CARDS_PER_DAY a day). */
  new: z.number().int(),
  /** Cards reviewed before and due now. */
  due: z.number().int(),
});
export type ReviewCounts = z.infer<typeof reviewCounts>;

export const reviewDueQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  day_start: dayStart,
});
export const reviewDueResponse = envelope(z.object({ items: z.array(reviewItem), counts: reviewCounts }));
export type ReviewDueResponse = z.infer<typeof reviewDueResponse>;

export const reviewGradeBody = z
  .object({
    /** Chosen by the client for this grade: sending it again (an offline replay) changes nothing. */
    review_id: z.uuid(),
    card_id: z.uuid(),
    rating: reviewRating,
    /** When the learner graded (offline grades are sent later); now when absent, never in the future. */
    reviewed_at: z.iso.datetime({ offset: true }).optional(),
    /** Where the learner's day began, for the counts sent back (new cards left today). */
    day_start: dayStart,
  })
  .meta({
    examples: [
      {
        review_id: "0192f1c2-7d1e-7a00-9c1b-5d0e2f3a4b5c",
        card_id: "0192f1c2-7d1e-7a00-9c1b-000000000001",
        rating: 3,
      },
    ],
  });
export type ReviewGradeBody = z.infer<typeof reviewGradeBody>;
export const reviewGradeResponse = envelope(
  z.object({
    card: reviewCard,
    /** True when this review id had been graded already: nothing changed. */
    duplicate: z.boolean(),
    counts: reviewCounts,
  }),
);
export type ReviewGradeResponse = z.infer<typeof reviewGradeResponse>;

export const reviewAddBody = z.object({ cue_id: z.uuid() });
export const reviewAddResponse = envelope(z.object({ card: reviewCard, added: z.boolean() }));
export type ReviewAddResponse = z.infer<typeof reviewAddResponse>;

export const reviewStatsQuery = z.object({
  day_start: dayStart,
});
export const reviewStats = reviewCounts.extend({
  /** Every card of the deck the learner may still open. */
  total: z.number().int(),
  learning: z.number().int(),
  review: z.number().int(),
  reviewed_today: z.number().int(),
  /** When the next card falls due (ISO), null with an empty deck. */
  next_due: z.string().nullable(),
  day_start: z.string(),
});
export type ReviewStats = z.infer<typeof reviewStats>;
export const reviewStatsResponse = envelope(z.object({ stats: reviewStats }));
export type ReviewStatsResponse = z.infer<typeof reviewStatsResponse>;
