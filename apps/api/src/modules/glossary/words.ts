import { lineWords, type WordLookup, type WordMeaning, wordKey } from "@parlons/contract";
import { notFound } from "../../lib/errors";
import type { LessonService } from "../lessons/service";
import type { Reviewer, ReviewService } from "../review/service";
import type { WordCards } from "../review/word-cards";
import type { DictdShelf } from "./dictd";
import type { GlossaryService } from "./service";

/** Languages the meanings are written in (the glossary's two columns). */
const MEANING_LANGUAGES = ["fr", "en"] as const;

/**
 * A learner's words in a lesson: looked up in the course's glossary, then in the installed
 * dictionaries, and put in their review deck. Only a learner the lesson opens for (`mayOpen`,
 * through the review deck's `mustOpen`) may look up its words, and only words its lines say.
 */
export function createWordService(deps: {
  glossary: GlossaryService;
  review: ReviewService;
  wordCards: WordCards;
  lessons: LessonService;
  courses: { findByIds(ids: string[]): Promise<{ id: string; targetLanguage: string }[]> };
  dictionaries: DictdShelf;
}) {
  const { glossary, review, wordCards, lessons, courses, dictionaries } = deps;

  /** The lesson's course language and lines, once the lesson opens for the reviewer; the word must be in a line. */
  async function wordInLesson(reviewer: Reviewer, lessonId: string, word: string) {
    await review.mustOpen(reviewer, lessonId);
    const [lesson] = await lessons.findByIds([lessonId]);
    const [course] = lesson ? await courses.findByIds([lesson.courseId]) : [];
    if (!lesson || !course) throw notFound("Lesson");
    const key = wordKey(word);
    const cues = (await lessons.cuesOf([lessonId])).get(lessonId) ?? [];
    const saying = cues.filter((cue) => lineWords(cue.text).some((w) => wordKey(w) === key));
    if (saying.length === 0) throw notFound("Word in this lesson");
    return { key, courseId: course.id, language: course.targetLanguage, saying };
  }

  async function meaningsOf(courseId: string, language: string, key: string): Promise<WordMeaning[]> {
    const meanings: WordMeaning[] = [];
    const entry = (await glossary.entriesOf(courseId, [key])).get(key);
    if (entry)
      meanings.push({
        source: "glossary",
        dictionary: null,
        meaning_fr: entry.meaningFr,
        meaning_en: entry.meaningEn,
        note: entry.note,
      });
    for (const to of MEANING_LANGUAGES) {
      const dictionary = dictionaries.between(language, to);
      if (!dictionary) continue;
      for (const article of await dictionary.lookup(key))
        meanings.push({
          source: "dictionary",
          dictionary: dictionary.name,
          meaning_fr: to === "fr" ? article.meanings : "",
          meaning_en: to === "en" ? article.meanings : "",
          note: article.head,
        });
    }
    return meanings;
  }

  return {
    async lookup(reviewer: Reviewer, lessonId: string, word: string): Promise<WordLookup> {
      const { key, courseId, language } = await wordInLesson(reviewer, lessonId, word);
      return {
        word: key,
        language,
        meanings: await meaningsOf(courseId, language, key),
        status: await wordCards.statusOf(reviewer.principal.id, language, key),
      };
    },

    /** "Add to my words": a word card with the meaning found now, the line as its context. */
    async add(reviewer: Reviewer, lessonId: string, body: { word: string; cue_id: string }) {
      const { key, courseId, language, saying } = await wordInLesson(reviewer, lessonId, body.word);
      const cue = saying.find((c) => c.id === body.cue_id);
      if (!cue) throw notFound("Word in this line");
      const meanings = await meaningsOf(courseId, language, key);
      const first = (field: "meaning_fr" | "meaning_en") => meanings.find((m) => m[field])?.[field] ?? "";
      const result = await wordCards.add({
        userId: reviewer.principal.id,
        word: key,
        language,
        cueId: cue.id,
        lessonId,
        meaningFr: first("meaning_fr"),
        meaningEn: first("meaning_en"),
      });
      return { ...result, word: key };
    },
  };
}
export type WordService = ReturnType<typeof createWordService>;
