import type { Locale } from "@parlons/contract";

/** Dates and money in the words of mails and PDFs the server writes, in the reader's language. */
export type Lang = Locale;

/** The `Intl` locale of a language: its code, unless a region is wanted (en-GB as in the web app). */
const REGIONS: Partial<Record<Lang, string>> = { fr: "fr-FR", en: "en-GB" };
const intl = (lang: Lang) => REGIONS[lang] ?? lang;
// mails and receipts are dated in the seller's time zone (a French business)
const TIME_ZONE = "Europe/Paris";

/** Money in the reader's language; narrow and non-breaking spaces become plain ones (PDF standard fonts lack them). */
export function formatMoney(cents: number, currency: string, lang: Lang): string {
  return new Intl.NumberFormat(intl(lang), { style: "currency", currency })
    .format(cents / 100)
    .replace(/[\u202f\u00a0]/g, " ");
}

export function formatDate(date: Date, lang: Lang): string {
  return new Intl.DateTimeFormat(intl(lang), { dateStyle: "long", timeZone: TIME_ZONE }).format(date);
}

export function formatDateTime(date: Date, lang: Lang): string {
  return new Intl.DateTimeFormat(intl(lang), {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: TIME_ZONE,
    timeZoneName: "short",
  })
    .format(date)
    .replace(/[\u202f\u00a0]/g, " ");
}

/** A rate in basis points as a percentage in the reader's language (2000 → "20 %" in fr, "20%" in en). */
export function formatRate(rate: number, lang: Lang): string {
  return new Intl.NumberFormat(intl(lang), { style: "percent", maximumFractionDigits: 2 })
    .format(rate / 10000)
    .replace(/[\u202f\u00a0]/g, " ");
}
