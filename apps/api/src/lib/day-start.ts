/** Start of today in UTC: "today" when the learner's own midnight is not given. */
function utcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/**
 * The learner's midnight as the client gives it, when it can be one (at most 50 hours ago, the far
 * side of the date line, and not after now, give or take an hour of clock skew); 00:00 UTC otherwise.
 */
export function dayStartOf(given: string | undefined, now: Date): Date {
  const at = given ? new Date(given).getTime() : Number.NaN;
  const ago = now.getTime() - at;
  if (ago > -3_600_000 && ago < 50 * 3_600_000) return new Date(at);
  return utcMidnight(now);
}
