import { DEFAULT_LOCALE, type PublishProblem } from "@parlons/contract";
import { AppError } from "../../lib/errors";

/** What the publishing check reads of a lesson. */
export interface LessonReadiness {
  position: number;
  titleFr: string;
  titleEn: string;
  active: boolean;
  audioPath: string | null;
}

/** A title in the default locale (French: the locale every fallback ends at). */
const defaultTitle = (row: { titleFr: string; titleEn: string }) =>
  (DEFAULT_LOCALE === "en" ? row.titleEn : row.titleFr).trim();

/** How staff know a lesson without its default title: its other title, else its number. */
const nameOf = (l: LessonReadiness) => defaultTitle(l) || l.titleEn.trim() || `#${l.position + 1}`;

/**
 * Whether a course may go live: a title in the default locale, and at least one published lesson
 * with audio and a title in the default locale. Null when it may; else the fields of the
 * `COURSE_NOT_PUBLISHABLE` error, naming what is missing (and, when no lesson will do, the lessons
 * that come closest: drafts that would do, published ones lacking audio or the title).
 */
export function publishProblems(
  course: { titleFr: string; titleEn: string },
  lessons: readonly LessonReadiness[],
): Partial<Record<PublishProblem, string[]>> | null {
  const problems: Partial<Record<PublishProblem, string[]>> = {};
  if (!defaultTitle(course))
    problems.title = [`The course has no title in ${DEFAULT_LOCALE}, the default language`];
  const withAudio = (l: LessonReadiness) => Boolean(l.audioPath);
  const ready = lessons.filter((l) => l.active && withAudio(l) && defaultTitle(l));
  if (ready.length === 0) {
    problems.lessons = [
      lessons.length === 0
        ? "The course has no lesson"
        : `No published lesson has audio and a title in ${DEFAULT_LOCALE}`,
    ];
    const drafts = lessons.filter((l) => !l.active && withAudio(l) && defaultTitle(l));
    const silent = lessons.filter((l) => l.active && !withAudio(l));
    const untitled = lessons.filter((l) => l.active && withAudio(l) && !defaultTitle(l));
    if (drafts.length) problems.draft_lessons = drafts.map(nameOf);
    if (silent.length) problems.lessons_without_audio = silent.map(nameOf);
    if (untitled.length) problems.lessons_without_title = untitled.map(nameOf);
  }
  return Object.keys(problems).length ? problems : null;
}

/** 422 `COURSE_NOT_PUBLISHABLE` with the fields of `publishProblems`. */
export const notPublishable = (problems: Partial<Record<PublishProblem, string[]>>) =>
  new AppError(
    422,
    "COURSE_NOT_PUBLISHABLE",
    "The course cannot be published yet: see what is missing",
    problems as Record<string, string[]>,
  );
