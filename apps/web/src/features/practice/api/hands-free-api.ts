import type {
  HandsFreeGradesBody,
  HandsFreeGradesResponse,
  HandsFreeKind,
  HandsFreePlanResponse,
  Locale,
} from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { localMidnight } from "@/features/review/api/review-queries";
import { api } from "@/lib/api";

export const handsFreeKeys = {
  all: ["hands-free"] as const,
  plan: (kinds: HandsFreeKind[], lang: Locale) => ["hands-free", "plan", kinds.join(","), lang] as const,
};

/** The day's hands-free session, read once per visit (grades must not reshuffle it). */
export function handsFreePlanQuery(kinds: HandsFreeKind[], lang: Locale) {
  return queryOptions({
    queryKey: handsFreeKeys.plan(kinds, lang),
    queryFn: ({ signal }) =>
      api<HandsFreePlanResponse>("/v1/practice/hands-free", {
        query: { limit: 20, day_start: localMidnight(), kinds: kinds.join(","), lang },
        signal,
      }).then((r) => r.data),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}

/**
 * `POST /v1/practice/hands-free/grades`, a session's grades as the page queued them (`answered_at`
 * when it ended): the same grade ids sent again change nothing. The day is the learner's as they send.
 */
export function sendHandsFreeGrades(body: HandsFreeGradesBody) {
  return api<HandsFreeGradesResponse>("/v1/practice/hands-free/grades", {
    method: "POST",
    body: { ...body, day_start: localMidnight() },
    silent: true,
  }).then((r) => r.data);
}
