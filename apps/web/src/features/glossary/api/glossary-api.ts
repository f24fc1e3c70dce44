import type {
  GlossaryEntry,
  GlossaryEntryBody,
  GlossaryImportResult,
  GlossarySuggestion,
} from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { MutationConfig } from "@/lib/mutation";

type Data<T> = { message?: string; data: T };
type EntryList = { entries: GlossaryEntry[]; pagination: { page: number; pageSize: number; total: number } };

const base = (courseId: string) => `/v1/courses/${encodeURIComponent(courseId)}/glossary` as const;

const glossaryKeys = {
  course: (courseId: string) => ["glossary", courseId] as const,
  list: (courseId: string, page: number, q: string) => ["glossary", courseId, "list", page, q] as const,
  suggestions: (courseId: string) => ["glossary", courseId, "suggestions"] as const,
};

/** `GET /v1/courses/{id}/glossary` (lessons.manage): a page of entries, by term; `q` searches. */
export function glossaryQuery(courseId: string, page: number, pageSize: number, q: string) {
  return queryOptions({
    queryKey: glossaryKeys.list(courseId, page, q),
    queryFn: ({ signal }) =>
      api<Data<EntryList>>(base(courseId), {
        query: { page, pageSize, ...(q ? { q } : {}) },
        signal,
      }).then((r) => r.data),
  });
}

/** Words of the course's lines not in its glossary yet, with a meaning to start from. */
export function glossarySuggestionsQuery(courseId: string) {
  return queryOptions({
    queryKey: glossaryKeys.suggestions(courseId),
    queryFn: ({ signal }) =>
      api<Data<{ suggestions: GlossarySuggestion[] }>>(`${base(courseId)}/suggestions`, {
        query: { limit: 50 },
        signal,
      }).then((r) => r.data.suggestions),
  });
}

/** The glossary's entries and suggestions are read again, and the meanings learners look up. */
function useRefresh(courseId: string) {
  const client = useQueryClient();
  return async () => {
    await client.invalidateQueries({ queryKey: glossaryKeys.course(courseId) });
    await client.invalidateQueries({ queryKey: ["words"] });
  };
}

/** Adds an entry (no id) or changes one. */
export function useSaveEntry(
  courseId: string,
  config: MutationConfig<GlossaryEntry, { id?: string | undefined; body: GlossaryEntryBody }> = {},
) {
  const refresh = useRefresh(courseId);
  return useMutation({
    ...config,
    mutationFn: ({ id, body }) =>
      api<Data<{ entry: GlossaryEntry }>>(
        id ? `${base(courseId)}/${encodeURIComponent(id)}` : base(courseId),
        {
          method: id ? "PUT" : "POST",
          body,
        },
      ).then((r) => r.data.entry),
    onSuccess: async (...args) => {
      await config.onSuccess?.(...args);
      await refresh();
    },
  });
}

export function useDeleteEntry(courseId: string, config: MutationConfig<unknown, string> = {}) {
  const refresh = useRefresh(courseId);
  return useMutation({
    ...config,
    mutationFn: (id: string) => api(`${base(courseId)}/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: async (...args) => {
      await config.onSuccess?.(...args);
      await refresh();
    },
  });
}

/** Imports a CSV (term, meaning_fr, meaning_en, note): good lines are kept, bad ones reported by number. */
export function useImportGlossary(
  courseId: string,
  config: MutationConfig<GlossaryImportResult, string> = {},
) {
  const refresh = useRefresh(courseId);
  return useMutation({
    ...config,
    mutationFn: (csv: string) =>
      api<Data<GlossaryImportResult>>(`${base(courseId)}/import`, { method: "POST", body: { csv } }).then(
        (r) => r.data,
      ),
    onSuccess: async (...args) => {
      await config.onSuccess?.(...args);
      await refresh();
    },
  });
}
