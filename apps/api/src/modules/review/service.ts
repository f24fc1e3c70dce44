import {
  NEW_CARDS_PER_DAY,
  type ReviewCounts,
  type ReviewGradeBody,
  type ReviewItem,
  type ReviewStats,
} from "@parlons/contract";
import { and, asc, count, eq, gte, inArray, isNull, lte, min, ne, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { reviewCards, reviewLogs, reviewRemovedLines } from "../../db/schema/review";
import { type Clock, systemClock } from "../../lib/clock";
import { conflict, notFound } from "../../lib/errors";
import { canSeeCourse } from "../courses/policy";
import {
  type Access,
  type CoursePace,
  mayOpen,
  type OpenVerdict,
  type PaceLock,
  refusal,
} from "../entitlement/policy";
import { isLessonStaff } from "../lessons/policy";
import type { LessonRow, LessonService } from "../lessons/service";
import type { Principal } from "../users/service";
import { fromFsrsCard, gradeCard, nextIntervals, presentCard } from "./scheduler";
import { wordOf } from "./word-cards";

/** The learner reviewing: who they are and what their plan opens. */
export interface Reviewer {
  principal: Principal;
  access: Access;
}

type CardRow = typeof reviewCards.$inferSelect;

/**
 * Each learner's review deck: one card per lesson line, scheduled by FSRS (ts-fsrs). A card is
 * served, counted and graded only while its lesson opens for the learner (`mayOpen`: visible,
 * let in by their plan and by the course's pace).
 */
export function createReviewService(deps: {
  db: Db;
  lessons: LessonService;
  courses: { findByIds(ids: string[]): Promise<({ id: string; active: boolean } & CoursePace)[]> };
  /** The time now (lib/clock.ts): what is due, and when a grade is made. */
  clock?: Clock;
}) {
  const { db, lessons, courses } = deps;
  const clock = deps.clock ?? systemClock;

  /** What `mayOpen` answers for each of the lessons `ids` that exist, by id. */
  async function verdicts(
    reviewer: Reviewer,
    ids: string[],
  ): Promise<Map<string, { row: LessonRow; verdict: OpenVerdict }>> {
    const rows = await lessons.findByIds([...new Set(ids)]);
    const courseRows = await courses.findByIds([...new Set(rows.map((r) => r.courseId))]);
    const courseById = new Map(courseRows.map((c) => [c.id, c]));
    const reader = { staff: isLessonStaff(reviewer.principal), access: reviewer.access };
    const locks = reader.staff
      ? new Map<string, PaceLock>()
      : await lessons.paceLocksIn(courseRows, reviewer.principal.id);
    const result = new Map<string, { row: LessonRow; verdict: OpenVerdict }>();
    for (const row of rows) {
      const course = courseById.get(row.courseId);
      const verdict: OpenVerdict =
        course && canSeeCourse(reviewer.principal, course)
          ? mayOpen(reader, row, course, locks.get(row.id))
          : { open: false, reason: "hidden" };
      result.set(row.id, { row, verdict });
    }
    return result;
  }

  /** The lessons among `ids` that open for the reviewer, by id. */
  async function openLessons(reviewer: Reviewer, ids: string[]): Promise<Map<string, LessonRow>> {
    const open = new Map<string, LessonRow>();
    for (const [id, { row, verdict }] of await verdicts(reviewer, ids)) if (verdict.open) open.set(id, row);
    return open;
  }

  /** Throws the refusal of `mayOpen` unless the lesson opens for the reviewer. */
  async function mustOpen(reviewer: Reviewer, lessonId: string): Promise<void> {
    const verdict = (await verdicts(reviewer, [lessonId])).get(lessonId)?.verdict;
    if (!verdict?.open) throw refusal(verdict ?? { open: false, reason: "hidden" });
  }

  /** The lessons of the learner's deck that still open for them. */
  async function deckLessons(reviewer: Reviewer): Promise<Map<string, LessonRow>> {
    const rows = await db
      .selectDistinct({ lessonId: reviewCards.lessonId })
      .from(reviewCards)
      .where(eq(reviewCards.userId, reviewer.principal.id));
    return openLessons(
      reviewer,
      rows.map((r) => r.lessonId),
    );
  }

  const inDeck = (userId: string, lessonIds: string[]) =>
    and(eq(reviewCards.userId, userId), inArray(reviewCards.lessonId, lessonIds));

  /** How many new cards the learner may still start today (each card's first grade counts one). */
  async function newSlots(userId: string, dayStart: Date): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(reviewLogs)
      .where(
        and(eq(reviewLogs.userId, userId), eq(reviewLogs.state, 0), gte(reviewLogs.reviewedAt, dayStart)),
      );
    return Math.max(0, NEW_CARDS_PER_DAY - (row?.n ?? 0));
  }

  async function countsOf(
    userId: string,
    lessonIds: string[],
    now: Date,
    dayStart: Date,
  ): Promise<ReviewCounts> {
    if (lessonIds.length === 0) return { new: 0, due: 0 };
    const slots = await newSlots(userId, dayStart);
    const [row] = await db
      .select({
        new: sql<number>`count(*) filter (where ${reviewCards.state} = 0)`.mapWith(Number),
        due: sql<number>`count(*) filter (where ${reviewCards.state} <> 0 and ${reviewCards.due} <= ${now.toISOString()}::timestamptz)`.mapWith(
          Number,
        ),
      })
      .from(reviewCards)
      .where(inDeck(userId, lessonIds));
    return { new: Math.min(row?.new ?? 0, slots), due: row?.due ?? 0 };
  }

  /** Puts lines in the deck (new cards due now, in the order given); lines already there stay as they are. */
  async function addCards(userId: string, cues: { id: string; lessonId: string }[]): Promise<CardRow[]> {
    if (cues.length === 0) return [];
    const now = clock().getTime();
    return db
      .insert(reviewCards)
      .values(cues.map((c, i) => ({ userId, cueId: c.id, lessonId: c.lessonId, due: new Date(now + i) })))
      .onConflictDoNothing({
        target: [reviewCards.userId, reviewCards.cueId],
        where: isNull(reviewCards.word),
      })
      .returning();
  }

  return {
    /** Throws the refusal (`mayOpen`'s reason) unless the lesson opens for the reviewer. */
    mustOpen,

    /** The lessons among `ids` that open for the reviewer now. */
    openOf: async (reviewer: Reviewer, ids: string[]) => new Set((await openLessons(reviewer, ids)).keys()),

    /** Every line of a lesson the learner finished (the caller checked that it opens). */
    async addLesson(userId: string, lessonId: string): Promise<number> {
      const cues = (await lessons.cuesOf([lessonId])).get(lessonId) ?? [];
      if (cues.length === 0) return 0;
      // lines the learner took out of their deck stay out
      const removed = new Set(
        (
          await db
            .select({ cueId: reviewRemovedLines.cueId })
            .from(reviewRemovedLines)
            .where(and(eq(reviewRemovedLines.userId, userId), eq(reviewRemovedLines.lessonId, lessonId)))
        ).map((row) => row.cueId),
      );
      // a segment whose text staff have not typed yet (audio without a script) is nothing to review
      return (
        await addCards(
          userId,
          cues.filter((cue) => !removed.has(cue.id) && cue.text.trim() !== ""),
        )
      ).length;
    },

    /** One line, from the transcript's "add this line". */
    async addCue(reviewer: Reviewer, cueId: string) {
      const [cue] = await lessons.cuesByIds([cueId]);
      if (!cue) throw notFound("Line");
      await mustOpen(reviewer, cue.lessonId);
      await db
        .delete(reviewRemovedLines)
        .where(
          and(eq(reviewRemovedLines.userId, reviewer.principal.id), eq(reviewRemovedLines.cueId, cueId)),
        );
      const [added] = await addCards(reviewer.principal.id, [cue]);
      if (added) return { card: presentCard(added), added: true };
      const [existing] = await db
        .select()
        .from(reviewCards)
        .where(
          and(
            eq(reviewCards.userId, reviewer.principal.id),
            eq(reviewCards.cueId, cueId),
            isNull(reviewCards.word),
          ),
        );
      return { card: presentCard(existing as CardRow), added: false };
    },

    /**
     * The line of one of the reviewer's cards, for an exercise graded on it: another learner's card
     * is not found, and the line of a lesson that no longer opens for them is refused.
     */
    async lineOf(reviewer: Reviewer, cardId: string) {
      const [card] = await db
        .select({ cueId: reviewCards.cueId, lessonId: reviewCards.lessonId })
        .from(reviewCards)
        .where(and(eq(reviewCards.id, cardId), eq(reviewCards.userId, reviewer.principal.id)));
      if (!card) throw notFound("Review card");
      await mustOpen(reviewer, card.lessonId);
      const [cue] = await lessons.cuesByIds([card.cueId]);
      if (!cue) throw notFound("Line");
      return cue;
    },

    /** Takes one card (and its grades) out of the learner's deck; another learner's card is not found. */
    async removeCard(userId: string, cardId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const [removed] = await tx
          .delete(reviewCards)
          .where(and(eq(reviewCards.id, cardId), eq(reviewCards.userId, userId)))
          .returning({ cueId: reviewCards.cueId, lessonId: reviewCards.lessonId, word: reviewCards.word });
        if (!removed) throw notFound("Review card");
        // a word card goes alone: its line stays in (or out of) the deck as it was
        if (removed.word !== null) return;
        await tx
          .insert(reviewRemovedLines)
          .values({ userId, cueId: removed.cueId, lessonId: removed.lessonId })
          .onConflictDoNothing();
      });
    },

    /**
     * Cards to review now: those due first (oldest due first), then new ones in line order, no more
     * new ones than the day has left (NEW_CARDS_PER_DAY from `dayStart`).
     */
    async due(reviewer: Reviewer, limit: number, dayStart: Date, now = clock()) {
      const userId = reviewer.principal.id;
      const open = await deckLessons(reviewer);
      const lessonIds = [...open.keys()];
      const counts = await countsOf(userId, lessonIds, now, dayStart);
      if (lessonIds.length === 0) return { items: [], counts };
      const dueRows = await db
        .select()
        .from(reviewCards)
        .where(and(inDeck(userId, lessonIds), ne(reviewCards.state, 0), lte(reviewCards.due, now)))
        .orderBy(asc(reviewCards.due), asc(reviewCards.id))
        .limit(limit);
      const newLimit = Math.min(limit - dueRows.length, counts.new);
      const newRows =
        newLimit > 0
          ? await db
              .select()
              .from(reviewCards)
              .where(and(inDeck(userId, lessonIds), eq(reviewCards.state, 0)))
              .orderBy(asc(reviewCards.due), asc(reviewCards.id))
              .limit(newLimit)
          : [];
      const rows = [...dueRows, ...newRows];
      const cues = new Map((await lessons.cuesByIds(rows.map((r) => r.cueId))).map((c) => [c.id, c]));
      const audio = new Map<string, string | null>();
      for (const lessonId of new Set(rows.map((r) => r.lessonId))) {
        const lesson = open.get(lessonId) as LessonRow;
        audio.set(lessonId, await lessons.audioUrlOf(lesson, userId));
      }
      const items: ReviewItem[] = rows.flatMap((row) => {
        const cue = cues.get(row.cueId);
        const lesson = open.get(row.lessonId);
        if (!cue || !lesson) return [];
        return [
          {
            card: presentCard(row),
            cue: lessons.presentCue(cue),
            lesson: {
              id: lesson.id,
              course_id: lesson.courseId,
              title_fr: lesson.titleFr,
              title_en: lesson.titleEn,
              audio_url: audio.get(lesson.id) ?? null,
            },
            next_intervals: nextIntervals(row, now),
            ...wordOf(row),
          },
        ];
      });
      return { items, counts };
    },

    /**
     * Grades a card once per review id: the card is locked, ts-fsrs computes its next state, and
     * the grade's log row (keyed by the client's review id) is written before the card; a review
     * id already written (a replay, even a concurrent one) leaves the card as it is.
     */
    async grade(reviewer: Reviewer, body: ReviewGradeBody, dayStart: Date, now = clock()) {
      const userId = reviewer.principal.id;
      const mine = and(eq(reviewCards.id, body.card_id), eq(reviewCards.userId, userId));
      // the entitlement check reads other modules: before the transaction (PGlite has one connection)
      const [card] = await db.select({ lessonId: reviewCards.lessonId }).from(reviewCards).where(mine);
      if (!card) throw notFound("Review card");
      const verdict = (await verdicts(reviewer, [card.lessonId])).get(card.lessonId)?.verdict;
      const result = await db.transaction(async (tx) => {
        const [row] = await tx.select().from(reviewCards).where(mine).for("update");
        if (!row) throw notFound("Review card");
        const [seen] = await tx.select().from(reviewLogs).where(eq(reviewLogs.id, body.review_id));
        if (seen) {
          if (seen.userId !== userId || seen.cardId !== row.id)
            throw conflict("This review id belongs to another review");
          return { row, duplicate: true };
        }
        if (!verdict?.open) throw refusal(verdict ?? { open: false, reason: "hidden" });
        const reviewedAt = body.reviewed_at ? new Date(body.reviewed_at) : undefined;
        const { at, card } = gradeCard(row, body.rating, reviewedAt, now);
        const [logged] = await tx
          .insert(reviewLogs)
          .values({
            id: body.review_id,
            userId,
            cardId: row.id,
            rating: body.rating,
            state: row.state,
            reviewedAt: at,
            dueBefore: row.due,
            dueAfter: card.due,
          })
          .onConflictDoNothing()
          .returning({ id: reviewLogs.id });
        if (!logged) return { row, duplicate: true };
        const [updated] = await tx
          .update(reviewCards)
          .set({ ...fromFsrsCard(card), updatedAt: now })
          .where(eq(reviewCards.id, row.id))
          .returning();
        return { row: updated as CardRow, duplicate: false };
      });
      const deck = await deckLessons(reviewer);
      return {
        card: presentCard(result.row),
        duplicate: result.duplicate,
        counts: await countsOf(userId, [...deck.keys()], now, dayStart),
      };
    },

    async stats(reviewer: Reviewer, dayStart: Date, now = clock()): Promise<ReviewStats> {
      const userId = reviewer.principal.id;
      const lessonIds = [...(await deckLessons(reviewer)).keys()];
      const counts = await countsOf(userId, lessonIds, now, dayStart);
      const empty = { total: 0, learning: 0, review: 0, next_due: null };
      let deck: Omit<ReviewStats, "new" | "due" | "reviewed_today" | "day_start"> = empty;
      if (lessonIds.length > 0) {
        const [row] = await db
          .select({
            total: count(),
            learning: sql<number>`count(*) filter (where ${reviewCards.state} in (1, 3))`.mapWith(Number),
            review: sql<number>`count(*) filter (where ${reviewCards.state} = 2)`.mapWith(Number),
            next: min(reviewCards.due),
          })
          .from(reviewCards)
          .where(and(inDeck(userId, lessonIds), ne(reviewCards.state, 0)));
        const [all] = await db.select({ n: count() }).from(reviewCards).where(inDeck(userId, lessonIds));
        deck = {
          total: all?.n ?? 0,
          learning: row?.learning ?? 0,
          review: row?.review ?? 0,
          next_due: row?.next ? new Date(row.next).toISOString() : counts.new > 0 ? now.toISOString() : null,
        };
      }
      const [today] = await db
        .select({ n: count() })
        .from(reviewLogs)
        .where(and(eq(reviewLogs.userId, userId), gte(reviewLogs.reviewedAt, dayStart)));
      return { ...counts, ...deck, reviewed_today: today?.n ?? 0, day_start: dayStart.toISOString() };
    },

    /** Lines graded per local date (YYYY-MM-DD in `timeZone`) since `since`, for the daily habit. */
    async linesPerDay(userId: string, timeZone: string, since: Date): Promise<Map<string, number>> {
      const day = sql<string>`to_char(${reviewLogs.reviewedAt} at time zone ${timeZone}, 'YYYY-MM-DD')`;
      const rows = await db
        .select({ day, n: count() })
        .from(reviewLogs)
        .where(and(eq(reviewLogs.userId, userId), gte(reviewLogs.reviewedAt, since)))
        .groupBy(sql`1`);
      return new Map(rows.map((r) => [r.day, r.n]));
    },

    /** Whether the learner graded a line since `since` (a study reminder is not sent then). */
    async reviewedSince(userId: string, since: Date): Promise<boolean> {
      const [row] = await db
        .select({ id: reviewLogs.id })
        .from(reviewLogs)
        .where(and(eq(reviewLogs.userId, userId), gte(reviewLogs.reviewedAt, since)))
        .limit(1);
      return Boolean(row);
    },
  };
}
export type ReviewService = ReturnType<typeof createReviewService>;
