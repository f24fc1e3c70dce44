import type { Lang, LegalPage, LegalPageSlug } from "@parlons/contract";
import { LEGAL_PAGES } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";

export function isLegalPage(value: string): value is LegalPageSlug {
  return (LEGAL_PAGES as readonly string[]).includes(value);
}

/** `GET /v1/legal/{page}?lang=`: a legal page's text in the reader's language. */
export function legalPageQuery(page: LegalPageSlug, lang: Lang) {
  return queryOptions({
    queryKey: ["legal", page, lang] as const,
    queryFn: ({ signal }) =>
      api<{ data: { page: LegalPage } }>(`/v1/legal/${page}`, {
        query: { lang },
        signal,
        silent: true,
      }).then((r) => r.data.page),
  });
}
