import type { EmailTemplate, EmailTemplateBody, EmailTemplateListResponse } from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";

/** The templates' query keys: a save or a delete reads every template view again. */
const templateKeys = {
  all: ["email-templates"] as const,
  list: (page: number, pageSize: number) => ["email-templates", "list", page, pageSize] as const,
  active: ["email-templates", "active"] as const,
};

type Data<T> = { message?: string; data: T };

/** `GET /v1/email-templates`: one page, latest change first. */
export const templatesQuery = (page: number, pageSize = 20) =>
  queryOptions({
    queryKey: templateKeys.list(page, pageSize),
    queryFn: ({ signal }) =>
      api<EmailTemplateListResponse>("/v1/email-templates", { query: { page, pageSize }, signal }).then(
        (r) => r.data,
      ),
    staleTime: 0,
  });

/** `GET /v1/email-templates/active`: what the send form offers. */
export const activeTemplatesQuery = queryOptions({
  queryKey: templateKeys.active,
  queryFn: ({ signal }) =>
    api<Data<{ templates: EmailTemplate[] }>>("/v1/email-templates/active", { signal }).then(
      (r) => r.data.templates,
    ),
  staleTime: 0,
});

/** Create (`POST`) or replace (`PUT /{id}`); errors are shown by the form itself. */
export function useSaveTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: EmailTemplateBody }) =>
      api<Data<{ template: EmailTemplate }>>(
        id ? `/v1/email-templates/${encodeURIComponent(id)}` : "/v1/email-templates",
        { method: id ? "PUT" : "POST", body, silent: true },
      ).then((r) => r.data.template),
    onSuccess: () => client.invalidateQueries({ queryKey: templateKeys.all }),
  });
}

/** `DELETE /v1/email-templates/{id}`. */
export function useDeleteTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api<Data<{ id: string }>>(`/v1/email-templates/${encodeURIComponent(id)}`, {
        method: "DELETE",
        silent: true,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: templateKeys.all }),
  });
}
