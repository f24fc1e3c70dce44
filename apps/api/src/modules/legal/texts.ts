import type { LegalPageSlug, Locale } from "@parlons/contract";
import { catalogues } from "../../locales";

/**
 * Default legal texts for a French online course business, from the server's catalogues
 * (src/locales/<lang>/legal.ts). `{{placeholders}}` are filled from the `legal.company`
 * configuration and the settings' contact e-mail; staff replace a whole text with the
 * configuration `legal.<page>.<lang>` (`{ "title": "...", "body": "..." }`).
 */
export const LEGAL_TEXTS = Object.fromEntries(
  (Object.keys(catalogues.fr.legal) as LegalPageSlug[]).map((page) => [
    page,
    { fr: catalogues.fr.legal[page], en: catalogues.en.legal[page], es: catalogues.es.legal[page] },
  ]),
) as Record<LegalPageSlug, Record<Locale, { title: string; body: string }>>;
