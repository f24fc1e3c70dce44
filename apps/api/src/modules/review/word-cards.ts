import type { ReviewCard, ReviewWord, WordStatus } from "@parlons/contract";
import { and, count, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { reviewCards } from "../../db/schema/review";
import { type Clock, systemClock } from "../../lib/clock";
import { presentCard } from "./scheduler";

/** ts-fsrs's Review state: a word whose card reached it is known. */
const REVIEW = 2;

const statusOf = (state: number): Exclude<WordStatus, "new"> => (state === REVIEW ? "known" : "learning");

/** The word of a word card as a review item carries it (nothing for a line's card). */
export function wordOf(row: typeof reviewCards.$inferSelect): { word?: ReviewWord } {
  if (row.word === null) return {};
  return {
    word: { word: row.word, meaning_fr: row.wordMeaningFr ?? "", meaning_en: row.wordMeaningEn ?? "" },
  };
}

/** What a word card is made of: the word, its language, the line it was tapped in and the meaning shown. */
export interface NewWordCard {
  userId: string;
  word: string;
  language: string;
  cueId: string;
  lessonId: string;
  meaningFr: string;
  meaningEn: string;
}

/**
 * The learner's words: cards of the review deck that carry a word (one per learner, language and
 * word), scheduled by FSRS like a line's card and served in the same review session. The caller
 * checks that the lesson of the line opens for the learner.
 */
export function createWordCards(deps: { db: Db; clock?: Clock }) {
  const { db } = deps;
  const clock = deps.clock ?? systemClock;
  const mine = (userId: string, language: string) =>
    and(eq(reviewCards.userId, userId), eq(reviewCards.wordLanguage, language), isNotNull(reviewCards.word));

  return {
    /** Puts a word in the deck (a new card due now); a word already there stays as it is. */
    async add(card: NewWordCard): Promise<{ card: ReviewCard; status: WordStatus; added: boolean }> {
      const [added] = await db
        .insert(reviewCards)
        .values({
          userId: card.userId,
          cueId: card.cueId,
          lessonId: card.lessonId,
          due: clock(),
          word: card.word,
          wordLanguage: card.language,
          wordMeaningFr: card.meaningFr,
          wordMeaningEn: card.meaningEn,
        })
        .onConflictDoNothing({
          target: [reviewCards.userId, reviewCards.wordLanguage, reviewCards.word],
          where: isNotNull(reviewCards.word),
        })
        .returning();
      const row =
        added ??
        (
          await db
            .select()
            .from(reviewCards)
            .where(and(mine(card.userId, card.language), eq(reviewCards.word, card.word)))
        )[0];
      if (!row) throw new Error("word card neither added nor found");
      return { card: presentCard(row), status: statusOf(row.state), added: Boolean(added) };
    },

    /** The status of one word for the learner: new when it is not in their deck. */
    async statusOf(userId: string, language: string, word: string): Promise<WordStatus> {
      const [row] = await db
        .select({ state: reviewCards.state })
        .from(reviewCards)
        .where(and(mine(userId, language), eq(reviewCards.word, word)));
      return row ? statusOf(row.state) : "new";
    },

    /** Every word of the learner's deck in a language, with its status (for the transcript's colours). */
    async statuses(userId: string, language: string) {
      const rows = await db
        .select({ word: reviewCards.word, state: reviewCards.state })
        .from(reviewCards)
        .where(mine(userId, language))
        .orderBy(reviewCards.word)
        .limit(20_000);
      return rows.map((r) => ({ word: r.word as string, status: statusOf(r.state) }));
    },

    /** Known and learning words per language, for the dashboard. */
    async counts(userId: string) {
      const rows = await db
        .select({
          language: reviewCards.wordLanguage,
          known: sql<number>`count(*) filter (where ${reviewCards.state} = ${REVIEW})`.mapWith(Number),
          all: count(),
        })
        .from(reviewCards)
        .where(and(eq(reviewCards.userId, userId), isNotNull(reviewCards.word)))
        .groupBy(reviewCards.wordLanguage)
        .orderBy(reviewCards.wordLanguage);
      return rows.map((r) => ({ language: r.language as string, known: r.known, learning: r.all - r.known }));
    },
  };
}
export type WordCards = ReturnType<typeof createWordCards>;
