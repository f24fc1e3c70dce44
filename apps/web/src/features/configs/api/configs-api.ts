import type {
  ConfigBody,
  ConfigItem,
  ConfigListResponse,
  ConfigResponse,
  ConfigUpdateBody,
} from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";

const keys = {
  all: ["configs"] as const,
  list: (query: { page: number; pageSize: number; search?: string }) => ["configs", "list", query] as const,
};

/** `GET /v1/configs` (staff, configs.manage). */
export function configListQuery(query: { page: number; pageSize: number; search?: string }) {
  return queryOptions({
    queryKey: keys.list(query),
    queryFn: ({ signal }) =>
      api<ConfigListResponse>("/v1/configs", { query: { ...query }, signal }).then((r) => r.data),
    placeholderData: (previous) => previous,
  });
}

export type SaveInput =
  | { create: true; body: ConfigBody }
  | { create: false; key: string; body: ConfigUpdateBody };

/** Create (`POST /v1/configs`) or update (`PUT /v1/configs/{key}`); errors are shown by the form. */
export function useSaveConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (
      input: { create: true; body: ConfigBody } | { create: false; key: string; body: ConfigUpdateBody },
    ) =>
      (input.create
        ? api<ConfigResponse>("/v1/configs", { method: "POST", body: input.body, silent: true })
        : api<ConfigResponse>(`/v1/configs/${encodeURIComponent(input.key)}`, {
            method: "PUT",
            body: input.body,
            silent: true,
          })
      ).then((r): ConfigItem => r.data.config),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useDeleteConfig() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (key: string) =>
      api<{ data: { key: string } }>(`/v1/configs/${encodeURIComponent(key)}`, {
        method: "DELETE",
        silent: true,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all }),
  });
}
