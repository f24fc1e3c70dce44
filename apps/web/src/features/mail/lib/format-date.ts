import type { Lang } from "../../../lib/locale-path";

/** A date and time in the page's language, e.g. "3 mai 2026, 14:05". */
export function formatDateTime(iso: string, lang: Lang): string {
  return new Intl.DateTimeFormat(lang === "fr" ? "fr-FR" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
  }).format(new Date(iso));
}
