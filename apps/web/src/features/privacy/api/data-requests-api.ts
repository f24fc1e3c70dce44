import type { DataRequestListQuery, DataRequestListResponse } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";

export const dataRequestKeys = { all: ["data-requests"] as const };

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
