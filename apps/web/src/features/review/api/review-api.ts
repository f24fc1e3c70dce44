import type { ReviewDueResponse, ReviewGradeBody, ReviewGradeResponse } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";
import { type SendOutcome, sendOnce } from "../lib/outbox";
import { localMidnight, reviewKeys } from "./review-queries";

/** The cards to review now, read once per session (a grade must not reshuffle the queue). */
export const dueReviewsQuery = queryOptions({
  queryKey: reviewKeys.due,
  queryFn: ({ signal }) =>
    api<ReviewDueResponse>("/v1/review/due", {
      query: { limit: 100, day_start: localMidnight() },
      signal,
      // the page says what went wrong, once (no toast beside it)
      silent: true,
    }).then((r) => r.data),
  staleTime: Number.POSITIVE_INFINITY,
  refetchOnWindowFocus: false,
});

function gradeReview(body: ReviewGradeBody) {
  // the counts sent back are the learner's day's: where their day began, now (not when graded offline)
  return api<ReviewGradeResponse>("/v1/review/grade", {
    method: "POST",
    body: { ...body, day_start: localMidnight() },
    silent: true,
  }).then((r) => r.data);
}

/** One queued grade: sent, or refused for good (4xx: nothing to retry), or to retry later. */
export function sendQueuedGrade(body: ReviewGradeBody): Promise<SendOutcome> {
  return sendOnce(() => gradeReview(body));
}

/** Takes one card out of the learner's deck (its grades go with it). */
export function removeReviewCard(cardId: string): Promise<void> {
  return api<void>(`/v1/review/cards/${cardId}`, { method: "DELETE" });
}
