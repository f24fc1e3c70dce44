import type { AuditListQuery, AuditListResponse } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";

const auditKeys = { list: (query: object) => ["audit", "list", query] as const };

export type AuditFilters = Partial<
  Pick<AuditListQuery, "actor" | "action" | "target_type" | "target_id" | "from" | "to" | "sign_ins">
>;

/** `GET /v1/audit` (staff, audit.read): one page of entries, newest first. */
export function auditListQuery(query: AuditFilters & { page: number; pageSize: number }) {
  return queryOptions({
    queryKey: auditKeys.list(query),
    queryFn: ({ signal }) =>
      api<AuditListResponse>("/v1/audit", { query: { ...query }, signal, silent: true }).then((r) => r.data),
    placeholderData: (previous) => previous,
  });
}
