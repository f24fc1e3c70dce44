import {
  HANDS_FREE_GAP,
  type HandsFreeGradesBody,
  type HandsFreeItem,
  type HandsFreeKind,
  type HandsFreePlan,
  type HandsFreeQuery,
  handsFreeSteps,
  promptOf,
  type ReviewCounts,
  type ReviewItem,
} from "@parlons/contract";
import type { Reviewer, ReviewService } from "../review/service";

/** The kind of an item: a line still being learned is echoed, a line in review recalled (when it has a prompt). */
function kindOf(item: ReviewItem, kinds: HandsFreeKind[], hasPrompt: boolean): HandsFreeKind {
  if (!hasPrompt || !kinds.includes("recall")) return "echo";
  if (!kinds.includes("echo")) return "recall";
  return item.card.state === "review" ? "recall" : "echo";
}

/** Seconds the steps of an item last, its prompt aside. */
function stepsSeconds(item: Pick<HandsFreeItem, "cue" | "steps">): number {
  const line = item.cue.end - item.cue.start;
  return item.steps.reduce(
    (sum, s) => sum + (s.type === "pause" ? s.seconds : s.type === "line" ? line : 0),
    0,
  );
}

/**
 * The hands-free daily session, made from the learner's review deck (`review.due`: the cards due
 * now, then new ones, only from lessons that open for them) and graded back into it through
 * `review.grade`: one scheduler, one log per grade id.
 */
export function createHandsFreeService(deps: {
  review: Pick<ReviewService, "due" | "grade" | "lineOf">;
  courses: { findByIds(ids: string[]): Promise<{ id: string; targetLanguage: string }[]> };
}) {
  const { review, courses } = deps;
  return {
    /** The day's items in the deck's order: lines with audio (word cards are reviewed elsewhere). */
    async plan(reviewer: Reviewer, query: HandsFreeQuery, dayStart: Date): Promise<HandsFreePlan> {
      const { items, counts } = await review.due(reviewer, query.limit, dayStart);
      const lines = items.filter((item) => !item.word && item.lesson.audio_url !== null);
      const languages = new Map(
        (await courses.findByIds([...new Set(lines.map((i) => i.lesson.course_id))])).map((c) => [
          c.id,
          c.targetLanguage,
        ]),
      );
      const planned = lines.map((item): HandsFreeItem => {
        const prompt = promptOf(item.cue, query.lang);
        const kind = kindOf(item, query.kinds, prompt !== null);
        return {
          kind,
          card: item.card,
          cue: item.cue,
          lesson: item.lesson,
          language: languages.get(item.lesson.course_id) ?? "",
          prompt: kind === "recall" ? prompt : null,
          steps: handsFreeSteps(kind, item.cue.end - item.cue.start),
        };
      });
      const seconds =
        planned.reduce((sum, item) => sum + stepsSeconds(item), 0) +
        HANDS_FREE_GAP * Math.max(0, planned.length - 1);
      return { items: planned, counts, gap: HANDS_FREE_GAP, seconds: Math.round(seconds * 10) / 10 };
    },

    /**
     * Grades the session's cards (one tap per item, or "all good" for the rest): every card is
     * checked first (another learner's is not found, a closed lesson's refused), then each grade
     * goes to its card once per grade id, as review's do.
     */
    async grade(reviewer: Reviewer, body: HandsFreeGradesBody, dayStart: Date) {
      for (const g of body.grades) await review.lineOf(reviewer, g.card_id);
      const graded: { card: ReviewItem["card"]; duplicate: boolean }[] = [];
      let counts: ReviewCounts = { new: 0, due: 0 };
      for (const g of body.grades) {
        const result = await review.grade(
          reviewer,
          {
            review_id: g.grade_id,
            card_id: g.card_id,
            rating: g.rating,
            reviewed_at: body.answered_at,
            day_start: body.day_start,
          },
          dayStart,
        );
        graded.push({ card: result.card, duplicate: result.duplicate });
        counts = result.counts;
      }
      return { graded, counts };
    },
  };
}
export type HandsFreeService = ReturnType<typeof createHandsFreeService>;
