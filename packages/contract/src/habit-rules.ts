/**
 * The daily habit's rules, without zod: a page that only needs a limit (the dashboard's goal field)
 * does not bring the schema library with it (issue 26: 26 KB gzip on the dashboard).
 */

/** Whether a name is a time zone this runtime (and PostgreSQL's tz database) knows. */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const DAILY_GOAL_MIN = 1;
export const DAILY_GOAL_MAX = 240;
/** A reviewed line counts as this many seconds of study toward the daily goal. */
export const REVIEW_LINE_SECONDS = 15;
/** A review or exercise session of at least this many items makes the day a study day. */
export const STUDY_UNIT_ITEMS = 10;
/** Sessions the habit counts: review (FSRS cards) and exercises (dictation, cloze…). */
export const STUDY_SESSION_KINDS = ["review", "exercise"] as const;
/** Levels a learner picks at the welcome: "starting" (never learned it) or a CEFR level up to C1. */
export const LEARNER_LEVELS = ["starting", "A1", "A2", "B1", "B2", "C1"] as const;
/** Daily goals offered at the welcome, in minutes. */
export const WELCOME_GOALS = [5, 10, 15, 20] as const;
export type LearnerLevel = (typeof LEARNER_LEVELS)[number];
