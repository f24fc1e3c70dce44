import type { FastifyRequest } from "fastify";

/**
 * Limits of the routes that cost the server real work each time (an archive of the account, a
 * PDF drawn, a calendar file written, a recording stored), counted per learner: by user id, so
 * that a learner behind many addresses counts once and learners sharing an address (a school, a
 * phone network) do not block each other; a visitor (a public route) by address. The counters are
 * the rate-limit plugin's (app.ts): in Redis when REDIS_URL is set, hence shared by every API
 * process, else in this process. Past the limit: 429 RATE_LIMITED with Retry-After.
 */
function learnerKey(request: FastifyRequest): string {
  return request.principal ? `user:${request.principal.id}` : `ip:${request.ip}`;
}

const perLearner = (max: number, minutes: number) => ({
  max,
  timeWindow: minutes * 60_000,
  keyGenerator: learnerKey,
});

export const learnerLimits = {
  /** A copy of every row of the account: a few a day is what anyone needs (300 in 6.7 s were made). */
  dataExport: perLearner(5, 60),
  /** A PDF drawn each time: a learner downloads a certificate or receipt a few times. */
  pdf: perLearner(30, 10),
  /** A calendar file of an event. */
  calendar: perLearner(60, 10),
  /** A recording of a line, stored: a review session records many lines, not hundreds a minute. */
  recording: perLearner(120, 10),
  /** A lesson aligned to its script (seconds of a core each): staff align a lesson a few times. */
  alignment: perLearner(20, 10),
};
