import type { PublicPlan } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";

/**
 * `GET /v1/plans/active` (public), in display order: a file of its own, light enough for the
 * public course page and catalogue (which show the offers that open a course) without the rest
 * of the billing API. Each plan comes with what it opens among what exists (`opens`, `courses`).
 * Its key is `billingKeys.activePlans`.
 */
export const activePlansQuery = queryOptions({
  queryKey: ["plans", "active"] as const,
  queryFn: ({ signal }) =>
    api<{ data: { plans: PublicPlan[] } }>("/v1/plans/active", { signal }).then((r) => r.data.plans),
});
