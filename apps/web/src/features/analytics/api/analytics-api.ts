import type {
  AnalyticsCourseLinesResponse,
  AnalyticsQuery,
  AnalyticsResponse,
  StaffOverviewResponse,
} from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, apiFile } from "@/lib/api";
import { saveFile } from "@/lib/download";
import type { MutationConfig } from "@/lib/mutation";

const analyticsKeys = { all: ["analytics"] as const };

/** `GET /v1/analytics?from=&to=` (analytics.read). */
export function analyticsQuery(range: Required<AnalyticsQuery>) {
  return queryOptions({
    queryKey: [...analyticsKeys.all, range] as const,
    queryFn: ({ signal }) =>
      api<AnalyticsResponse>("/v1/analytics", { query: { ...range }, signal }).then((r) => r.data.analytics),
  });
}

/** Saves the daily figures of the range as CSV. */
export async function downloadAnalyticsCsv(range: Required<AnalyticsQuery>) {
  const file = await apiFile("/v1/analytics/csv", { query: { ...range } });
  saveFile(`parlons-analytics-${range.from}-${range.to}.csv`, file);
}

/** `POST /v1/analytics/refresh`: runs the roll-up now rather than at its next ten-minute run. */
export function refreshAnalytics() {
  return api("/v1/analytics/refresh", { method: "POST" });
}

/** Rolls the figures up again now, then the page reads them again. */
export function useRefreshAnalytics(
  config: MutationConfig<Awaited<ReturnType<typeof refreshAnalytics>>> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: refreshAnalytics,
    onSuccess: async (...args) => {
      await config.onSuccess?.(...args);
      await queryClient.invalidateQueries({ queryKey: analyticsKeys.all });
    },
  });
}

/** `GET /v1/analytics/courses/{id}/lines` (analytics.read): each lesson's lines with what their grades add up to. */
export function courseLinesQuery(courseId: string) {
  return queryOptions({
    queryKey: [...analyticsKeys.all, "lines", courseId] as const,
    queryFn: ({ signal }) =>
      api<AnalyticsCourseLinesResponse>(`/v1/analytics/courses/${encodeURIComponent(courseId)}/lines`, {
        signal,
      }).then((r) => r.data.lines),
  });
}

/** `GET /v1/analytics/overview` (dashboard.admin): the staff landing page's figures, counted now. */
export const staffOverviewQuery = queryOptions({
  queryKey: [...analyticsKeys.all, "overview"] as const,
  queryFn: ({ signal }) =>
    api<StaffOverviewResponse>("/v1/analytics/overview", { signal }).then((r) => r.data.overview),
});
