import type { ReviewAddResponse, ReviewStatsResponse } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { MutationConfig } from "@/lib/mutation";

/** Query keys of the review deck, shared by the dashboard, the transcript and the review page. */
export const reviewKeys = {
  all: ["review"] as const,
  due: ["review", "due"] as const,
  stats: ["review", "stats"] as const,
};

/** Midnight of today in the learner's time zone: where "reviewed today" starts. */
export function localMidnight(now = new Date()): string {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).toISOString();
}

/** The deck's figures from the learner's midnight (quiet: the card or summary says what failed). */
export function fetchReviewStats(signal?: AbortSignal) {
  return api<ReviewStatsResponse>("/v1/review/stats", {
    query: { day_start: localMidnight() },
    signal,
    silent: true,
  }).then((r) => r.data.stats);
}

export const reviewStatsQuery = queryOptions({
  queryKey: reviewKeys.stats,
  queryFn: ({ signal }) => fetchReviewStats(signal),
});

/** "Add this line": one line into the deck (a line already there stays as it is). */
export function addLineToReview(cueId: string) {
  return api<ReviewAddResponse>("/v1/review/cards", { method: "POST", body: { cue_id: cueId } }).then(
    (r) => r.data,
  );
}

/** Adds a transcript line to the learner's review deck, then the review counts are read again. */
export function useAddLineToReview(
  cueId: string,
  config: MutationConfig<Awaited<ReturnType<typeof addLineToReview>>> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: () => addLineToReview(cueId),
    onSuccess: (...args) => {
      config.onSuccess?.(...args);
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
    },
  });
}
