import type { DataRequestListQuery, DataRequestListResponse } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { MutationConfig } from "@/lib/mutation";

const dataRequestKeys = { all: ["data-requests"] as const };

/** `GET /v1/data-requests` (privacy.manage). */
export function dataRequestListQuery(query: DataRequestListQuery) {
  return queryOptions({
    queryKey: [...dataRequestKeys.all, query] as const,
    queryFn: ({ signal }) =>
      api<DataRequestListResponse>("/v1/data-requests", { query: { ...query }, signal }).then((r) => r.data),
  });
}

/** `POST /v1/data-requests/{id}/process`: runs a pending or failed export now. */
export function processDataRequest(id: string) {
  return api(`/v1/data-requests/${encodeURIComponent(id)}/process`, { method: "POST" });
}

/** Marks a learner's data request processed, then the list is read again. */
export function useProcessDataRequest(
  config: MutationConfig<Awaited<ReturnType<typeof processDataRequest>>, string> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: processDataRequest,
    onSuccess: async (...args) => {
      await config.onSuccess?.(...args);
      await queryClient.invalidateQueries({ queryKey: dataRequestKeys.all });
    },
  });
}
