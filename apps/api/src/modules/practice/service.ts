import {
  chooseClozeBlanks,
  clozeBlanksValid,
  clozeChoices,
  courseVocabulary,
  type ExerciseKind,
  gradeResult,
  type PracticeExercise,
  type PracticeResultBody,
  type ReviewItem,
  wordsOf,
} from "@parlons/contract";
import { validationFailed } from "../../lib/errors";
import type { CourseRow } from "../courses/service";
import { isLessonStaff } from "../lessons/policy";
import type { LessonService } from "../lessons/service";
import type { Reviewer, ReviewService } from "../review/service";

/**
 * Exercises made from the lines of the learner's review deck. The cards to practise are the deck's
 * (`review.due`: only lessons that open for the learner), each result is graded here with the
 * contract's grading, and its grade goes to the card through `review.grade`: one scheduler.
 */
export function createPracticeService(deps: {
  review: ReviewService;
  lessons: LessonService;
  courses: { findByIds(ids: string[]): Promise<CourseRow[]> };
}) {
  const { review, lessons, courses } = deps;

  /** Each course's content words and their counts, over the lines of lessons that open for the learner. */
  async function vocabularies(reviewer: Reviewer, courseIds: string[]) {
    const rows = await courses.findByIds(courseIds);
    const viewer = {
      userId: reviewer.principal.id,
      staff: isLessonStaff(reviewer.principal),
      access: reviewer.access,
    };
    const result = new Map<string, { language: string; words: Map<string, number> }>();
    for (const course of rows) {
      const list = await lessons.list(course.id, viewer, { activeOnly: true, pace: course });
      const texts = list.flatMap((lesson) => lesson.cues.map((cue) => cue.text));
      result.set(course.id, {
        language: course.targetLanguage,
        words: courseVocabulary(texts, course.targetLanguage),
      });
    }
    return result;
  }

  /**
   * The kind of exercise a card gets: among the kinds the learner practises and the line allows
   * (dictation needs the audio, cloze a content word, recall a translation), a line still being
   * learned is heard or filled in before it is recalled from its translation alone; the kinds
   * take turns from one card to the next.
   */
  function kindOf(item: ReviewItem, position: number, kinds: ExerciseKind[], blanks: number[]): ExerciseKind {
    const allowed = kinds.filter((kind) => {
      if (kind === "dictation") return item.lesson.audio_url !== null;
      if (kind === "cloze") return blanks.length > 0;
      return item.cue.translation_fr !== "" || item.cue.translation_en !== "";
    });
    const learning = item.card.state === "new" || item.card.state === "learning";
    const levelled =
      learning && allowed.some((k) => k !== "recall") ? allowed.filter((k) => k !== "recall") : allowed;
    if (levelled.length === 0) return blanks.length > 0 ? "cloze" : "dictation";
    return levelled[(item.card.reps + position) % levelled.length] as ExerciseKind;
  }

  return {
    /** The day's exercises: the deck's cards due now and new ones, each made into one exercise. */
    async session(
      reviewer: Reviewer,
      query: { limit: number; kinds: ExerciseKind[] },
      dayStart: Date,
    ): Promise<{ items: PracticeExercise[]; counts: { new: number; due: number } }> {
      const { items, counts } = await review.due(reviewer, query.limit, dayStart);
      const vocab = await vocabularies(reviewer, [...new Set(items.map((i) => i.lesson.course_id))]);
      const exercises = items.map((item, position): PracticeExercise => {
        const course = vocab.get(item.lesson.course_id) ?? { language: "", words: new Map<string, number>() };
        const blanks = chooseClozeBlanks(item.cue.text, course.words, course.language);
        const kind = kindOf(item, position, query.kinds, blanks);
        const words = wordsOf(item.cue.text);
        return {
          ...item,
          kind,
          language: course.language,
          cloze:
            kind === "cloze"
              ? { blanks, choices: blanks.map((index) => clozeChoices(words[index] ?? "", course.words)) }
              : null,
        };
      });
      return { items: exercises, counts };
    },

    /**
     * Grades one result on its line (the server is the authority; the client's own grading only
     * shows it sooner) and gives its rating to the card, once per result id.
     */
    async submit(reviewer: Reviewer, body: PracticeResultBody, dayStart: Date) {
      const cue = await review.lineOf(reviewer, body.card_id);
      if (body.kind === "cloze" && !clozeBlanksValid(cue.text, body.blanks, body.answers))
        throw validationFailed({
          blanks: ["Blanks must be distinct word positions of the line, in order, one answer each"],
        });
      const grade = gradeResult(cue.text, body);
      const graded = await review.grade(
        reviewer,
        {
          review_id: body.result_id,
          card_id: body.card_id,
          rating: grade.rating,
          reviewed_at: body.answered_at,
          day_start: body.day_start,
        },
        dayStart,
      );
      return { grade, ...graded };
    },
  };
}
export type PracticeService = ReturnType<typeof createPracticeService>;
