/** Dates as YYYY-MM-DD strings in the learner's time zone; arithmetic on them is done in UTC. */

const DAY_MS = 86_400_000;

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** ISO 8601 week of a date, as `YYYY-Www` (weeks start on Monday; week 1 holds the first Thursday). */
export function isoWeek(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const weekday = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / DAY_MS + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, "0")}`;
}

/**
 * The streak ending today: days in a row with the goal reached, walking back from today (which
 * counts once reached; an unfinished today breaks nothing). One missed day per ISO week is
 * covered by that week's freeze, automatically, provided a reached day comes before it (a
 * freeze keeps a streak, it never starts one). A covered day keeps the streak but does not add
 * to it.
 */
export function streakOf(
  reached: (date: string) => boolean,
  today: string,
  maxDays = 400,
): { current: number; frozen: Set<string>; freezeAvailable: boolean } {
  let current = reached(today) ? 1 : 0;
  const frozen = new Set<string>();
  const weeksUsed = new Set<string>();
  let pending: string[] = [];
  for (let i = 1, date = addDays(today, -1); i <= maxDays; i++, date = addDays(date, -1)) {
    if (reached(date)) {
      current += 1;
      for (const d of pending) frozen.add(d);
      pending = [];
      continue;
    }
    const week = isoWeek(date);
    if (weeksUsed.has(week)) break;
    weeksUsed.add(week);
    pending.push(date);
  }
  const thisWeek = isoWeek(today);
  const freezeAvailable = ![...frozen].some((d) => isoWeek(d) === thisWeek);
  return { current, frozen, freezeAvailable };
}
