import type {
  ExerciseKind,
  PracticeResultBody,
  PracticeResultResponse,
  PracticeSessionResponse,
  ReviewStatsResponse,
} from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";
import { ApiError } from "@/lib/api-error";
import type { SendOutcome } from "@/lib/outbox";

/** Midnight of today in the learner's time zone: where their day (and its new cards) begins. */
function localMidnight(now = new Date()): string {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).toISOString();
}

export const practiceKeys = {
  all: ["practice"] as const,
  session: (kinds: ExerciseKind[]) => ["practice", "session", kinds.join(",")] as const,
  stats: ["practice", "stats"] as const,
};

/**
 * The day's exercises, read once per session (a result must not reshuffle them). The service
 * worker keeps the last one read, so a session of downloaded lessons opens offline.
 */
export function practiceSessionQuery(kinds: ExerciseKind[]) {
  return queryOptions({
    queryKey: practiceKeys.session(kinds),
    queryFn: ({ signal }) =>
      api<PracticeSessionResponse>("/v1/practice/session", {
        query: { limit: 20, day_start: localMidnight(), kinds: kinds.join(",") },
        signal,
      }).then((r) => r.data),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/** The deck's figures at the end of a session: when the next line is due. */
export const practiceStatsQuery = queryOptions({
  queryKey: practiceKeys.stats,
  queryFn: ({ signal }) =>
    api<ReviewStatsResponse>("/v1/review/stats", {
      query: { day_start: localMidnight() },
      signal,
      silent: true,
    }).then((r) => r.data.stats),
});

/** `POST /v1/practice/results`: the server grades the answer (the authority) and the line's card. */
function sendResult(body: PracticeResultBody) {
  return api<PracticeResultResponse>("/v1/practice/results", {
    method: "POST",
    body: { ...body, day_start: localMidnight() },
    silent: true,
  }).then((r) => r.data);
}

/** One queued result: sent, or refused for good (4xx: nothing to retry), or to retry later. */
export async function sendQueuedResult(body: PracticeResultBody): Promise<SendOutcome> {
  try {
    await sendResult(body);
    return "done";
  } catch (error) {
    if (
      error instanceof ApiError &&
      error.status >= 400 &&
      error.status < 500 &&
      error.status !== 401 &&
      error.status !== 429
    )
      return "done";
    return "retry";
  }
}
