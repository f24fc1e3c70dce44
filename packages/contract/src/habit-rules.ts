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
