import type { DataRequest } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";
import { profileKeys } from "./profile-keys";

export type ExportOutcome = { archive: Record<string, unknown> } | { request: DataRequest };

/** `POST /v1/user/me/data-export`: the archive itself (small account) or the job that mails it. */
export async function requestDataExport(): Promise<ExportOutcome> {
  const body = await api<Record<string, unknown> & { data?: { request?: DataRequest } }>(
    "/v1/user/me/data-export",
    { method: "POST" },
  );
  if (body.data?.request && body.format === undefined) return { request: body.data.request };
  return { archive: body };
}

export const myDataRequestsQuery = queryOptions({
  queryKey: profileKeys.dataRequests,
  queryFn: ({ signal }) =>
    api<{ data: { requests: DataRequest[] } }>("/v1/user/me/data-requests", { signal }).then(
      (r) => r.data.requests,
    ),
  // a running job is followed until it is done
  refetchInterval: (query) =>
    query.state.data?.some((r) => r.status === "pending" || r.status === "running") ? 2000 : false,
});

/** `POST /v1/user/me/delete`, confirmed by the password. */
export function deleteMyAccount(password: string) {
  return api<{ message: string }>("/v1/user/me/delete", { method: "POST", body: { password }, silent: true });
}
