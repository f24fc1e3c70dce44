import type { Lang, LegalPage, LegalPageSlug } from "@parlons/contract";
import { LEGAL_PAGES } from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { api } from "@/lib/api";

const legalKeys = { page: (page: string, lang: string) => ["legal", page, lang] as const };

export function isLegalPage(value: string): value is LegalPageSlug {
  return (LEGAL_PAGES as readonly string[]).includes(value);
}

/** `GET /v1/legal/{page}?lang=`: a legal page's text in the reader's language. */
export function legalPageQuery(page: LegalPageSlug, lang: Lang) {
  return queryOptions({
    queryKey: legalKeys.page(page, lang),
    queryFn: ({ signal }) =>
      api<{ data: { page: LegalPage } }>(`/v1/legal/${page}`, {
        query: { lang },
        signal,
        silent: true,
      }).then((r) => r.data.page),
  });
}
