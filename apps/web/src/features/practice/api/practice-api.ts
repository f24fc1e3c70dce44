import type {
  ExerciseKind,
  PracticeResultBody,
  PracticeResultResponse,
  PracticeSessionResponse,
} from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { fetchReviewStats, localMidnight } from "@/features/review/api/review-queries";
import { api } from "@/lib/api";
import { type SendOutcome, sendOnce } from "@/lib/outbox";

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
  queryFn: ({ signal }) => fetchReviewStats(signal),
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
export function sendQueuedResult(body: PracticeResultBody): Promise<SendOutcome> {
  return sendOnce(() => sendResult(body));
}
