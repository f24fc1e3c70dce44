import type { ReviewCard, ReviewRating, ReviewState } from "@parlons/contract";
import { type Card, fsrs, type Grade, State } from "ts-fsrs";
import type { reviewCards } from "../../db/schema/review";

type CardRow = typeof reviewCards.$inferSelect;

/**
 * FSRS with ts-fsrs's default parameters and no fuzz: the same card graded the same way at the
 * same time is always given the same next date (what the tests compare with ts-fsrs itself).
 */
const scheduler = fsrs();

const STATE_NAMES: Record<State, ReviewState> = {
  [State.New]: "new",
  [State.Learning]: "learning",
  [State.Review]: "review",
  [State.Relearning]: "relearning",
};

/** The stored row as the ts-fsrs card it holds. */
function toFsrsCard(row: CardRow): Card {
  return {
    due: row.due,
    stability: row.stability,
    difficulty: row.difficulty,
    elapsed_days: row.elapsedDays,
    scheduled_days: row.scheduledDays,
    learning_steps: row.learningSteps,
    reps: row.reps,
    lapses: row.lapses,
    state: row.state as State,
    last_review: row.lastReview ?? undefined,
  };
}

/** The columns a ts-fsrs card writes back. */
export function fromFsrsCard(card: Card) {
  return {
    due: card.due,
    stability: card.stability,
    difficulty: card.difficulty,
    elapsedDays: card.elapsed_days,
    scheduledDays: card.scheduled_days,
    learningSteps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    state: card.state,
    lastReview: card.last_review ?? null,
  };
}

/**
 * One grade: the card after it, as ts-fsrs decides. An offline grade sent late counts at the
 * time it was made, but never before the card's last review nor after `now`.
 */
export function gradeCard(row: CardRow, rating: ReviewRating, reviewedAt: Date | undefined, now: Date) {
  let at = reviewedAt && reviewedAt < now ? reviewedAt : now;
  if (row.lastReview && at < row.lastReview) at = row.lastReview;
  const next = scheduler.next(toFsrsCard(row), at, rating as Grade);
  return { at, card: next.card };
}

/**
 * Seconds from `now` until the card would be due again after each grade (Again, Hard, Good,
 * Easy): what the review page writes on its grade buttons.
 */
export function nextIntervals(row: CardRow, now: Date): number[] {
  const preview = scheduler.repeat(toFsrsCard(row), now);
  return ([1, 2, 3, 4] as Grade[]).map((g) =>
    Math.max(0, Math.round((preview[g].card.due.getTime() - now.getTime()) / 1000)),
  );
}

export function presentCard(row: CardRow): ReviewCard {
  return {
    id: row.id,
    state: STATE_NAMES[row.state as State] ?? "new",
    due: row.due.toISOString(),
    reps: row.reps,
    lapses: row.lapses,
    last_review: row.lastReview?.toISOString() ?? null,
  };
}
