/**
 * The one place where Parlons formats dates, durations, money and numbers for the reader: every
 * function takes the UI language and goes through `Intl` with that language's locale (one table,
 * `intlLocale`). Formatters are built once per locale and options, then reused. Components use
 * `useFormat()`; code outside React calls the functions with the language.
 */
import { type PlanSummary, pickField, type TranslatedKey } from "@parlons/contract";
import { useMemo } from "react";
import { isLang, type Lang } from "./locale-path";
import { useLang } from "./use-locale";

/**
 * The `Intl` locale of a UI language: its code, unless a region is wanted (en-GB: day before
 * month, 24-hour clock, as in French). A new language needs no line here.
 */
const INTL_REGIONS: Partial<Record<Lang, string>> = { fr: "fr-FR", en: "en-GB" };
export const intlLocale = (lang: Lang): string => INTL_REGIONS[lang] ?? lang;

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat>(
  kind: string,
  lang: Lang,
  options: object,
  make: (locale: string) => T,
): T {
  const key = `${kind}|${lang}|${JSON.stringify(options)}`;
  let f = cache.get(key) as T | undefined;
  if (!f) {
    f = make(intlLocale(lang));
    cache.set(key, f);
  }
  return f;
}
const dateFormat = (lang: Lang, options: Intl.DateTimeFormatOptions) =>
  cached("d", lang, options, (l) => new Intl.DateTimeFormat(l, options));
const numberFormat = (lang: Lang, options: Intl.NumberFormatOptions) =>
  cached("n", lang, options, (l) => new Intl.NumberFormat(l, options));

function toDate(value: string | Date | null | undefined): Date | null {
  if (value == null || value === "") return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export type DateStyle = "short" | "medium" | "long" | "full";

/** A plan's name in the UI language (name_fr in French). */
export function planName(
  plan: Pick<PlanSummary, "name" | "name_fr"> & Partial<Record<TranslatedKey<"name">, string>>,
  lang: Lang,
): string {
  // the English name is `name`; the other locales' are `name_es`… (where the answer carries them)
  return pickField({ ...plan, name_en: plan.name }, "name", lang);
}

/** The default free plan, or any plan without a price (spec §9: premium means amount > 0). */
export function isFreePlan(plan: Pick<PlanSummary, "amount" | "is_default"> | null | undefined): boolean {
  return !plan || plan.is_default || plan.amount <= 0;
}

/** A date ("3 mai 2026" in long style); null for a missing or invalid value. */
export function formatDate(
  value: string | Date | null | undefined,
  lang: Lang,
  style: DateStyle = "long",
): string | null {
  const date = toDate(value);
  return date && dateFormat(lang, { dateStyle: style }).format(date);
}

/** A date and time ("3 mai 2026, 14:05" in medium style); null for a missing or invalid value. */
export function formatDateTime(
  value: string | Date | null | undefined,
  lang: Lang,
  style: DateStyle = "medium",
  timeZone?: string,
): string | null {
  const date = toDate(value);
  return date && dateFormat(lang, { dateStyle: style, timeStyle: "short", timeZone }).format(date);
}

/** A number in the reader's conventions ("1 234,5" / "1,234.5"). */
export function formatNumber(value: number, lang: Lang, options: Intl.NumberFormatOptions = {}): string {
  return numberFormat(lang, options).format(value);
}

/** The decimal separator of the reader's numbers ("," in French and Spanish, "." in English). */
export function decimalSeparator(lang: Lang): string {
  return (
    numberFormat(lang, {})
      .formatToParts(1.5)
      .find((part) => part.type === "decimal")?.value ?? "."
  );
}

/** Money from integer cents ("9,90 €" / "€9.90"); an unknown currency code still reads well ("9,90 XYZ"). */
/** A size in bytes, in the largest unit that keeps it above 1 (1,5 Mo / 1.5 MB). */
export function formatBytes(bytes: number, lang: Lang): string {
  const units = ["byte", "kilobyte", "megabyte", "gigabyte"] as const;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return formatNumber(value, lang, {
    style: "unit",
    unit: units[unit],
    unitDisplay: "short",
    maximumFractionDigits: unit >= 2 ? 1 : 0,
  });
}

export function formatMoney(cents: number, currency: string, lang: Lang): string {
  try {
    return numberFormat(lang, { style: "currency", currency }).format(cents / 100);
  } catch {
    return `${numberFormat(lang, { minimumFractionDigits: 2 }).format(cents / 100)} ${currency}`;
  }
}

/** "1 h 5 min", "12 min", "45 s". */
export function formatDuration(seconds: number, lang: Lang): string {
  const s = Math.max(0, Math.round(Number.isFinite(seconds) ? seconds : 0));
  const unit = (value: number, u: "hour" | "minute" | "second") =>
    numberFormat(lang, { style: "unit", unit: u, unitDisplay: "short" }).format(value);
  if (s < 60) return unit(s, "second");
  const h = Math.floor(s / 3600);
  const m = Math.round((s % 3600) / 60);
  return h > 0 ? `${unit(h, "hour")} ${unit(m, "minute")}` : unit(m, "minute");
}

/** A playback speed: "1,25×" / "1.25×". */
export function formatSpeed(rate: number, lang: Lang): string {
  return `${numberFormat(lang, { maximumFractionDigits: 2 }).format(rate)}×`;
}

const RELATIVE_STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
  ["week", 4.35],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

/** "il y a 5 minutes" / "5 minutes ago": the largest unit that keeps the number below the next step. */
export function formatRelativeTime(iso: string, lang: Lang, now: Date = new Date()): string {
  let value = (new Date(iso).getTime() - now.getTime()) / 1000;
  const format = cached("r", lang, {}, (l) => new Intl.RelativeTimeFormat(l, { numeric: "auto" }));
  for (const [unit, step] of RELATIVE_STEPS) {
    if (Math.abs(value) < step) return format.format(Math.round(value), unit);
    value /= step;
  }
  return format.format(Math.round(value), "year");
}

/**
 * An event's time span: "mardi 14 juillet 2026, 18:00 – 19:00" on one day, else
 * "14 juil. 2026, 18:00 – 15 juil. 2026, 10:00", in `timeZone` (the browser's by default).
 */
export function formatDateRange(startsAt: string, endsAt: string, lang: Lang, timeZone?: string): string {
  const start = new Date(startsAt);
  const end = new Date(endsAt);
  const day = dateFormat(lang, { dateStyle: "full", timeZone });
  const time = dateFormat(lang, { timeStyle: "short", timeZone });
  const both = dateFormat(lang, { dateStyle: "medium", timeStyle: "short", timeZone });
  if (day.format(start) === day.format(end))
    return `${day.format(start)}, ${time.format(start)} – ${time.format(end)}`;
  return `${both.format(start)} – ${both.format(end)}`;
}

/**
 * A language's name in itself ("Français", "English", "Español"), for the language switch and the
 * language fields; any language code works, not only the UI's.
 */
export function ownLanguageName(code: string): string {
  const locale = isLang(code) ? intlLocale(code) : code;
  const name = displayLanguage(code, locale);
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

/** The name of a language code in the UI language ("anglais", "English"); the code when unknown. */
export function languageName(code: string, lang: Lang): string {
  return displayLanguage(code, intlLocale(lang));
}

function displayLanguage(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: "language" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Every formatter above, bound to one language. */
export function createFormat(lang: Lang) {
  return {
    lang,
    locale: intlLocale(lang),
    date: (value: string | Date | null | undefined, style?: DateStyle) => formatDate(value, lang, style),
    dateTime: (value: string | Date | null | undefined, style?: DateStyle, timeZone?: string) =>
      formatDateTime(value, lang, style, timeZone),
    dateRange: (startsAt: string, endsAt: string, timeZone?: string) =>
      formatDateRange(startsAt, endsAt, lang, timeZone),
    relative: (iso: string, now?: Date) => formatRelativeTime(iso, lang, now),
    number: (value: number, options?: Intl.NumberFormatOptions) => formatNumber(value, lang, options),
    money: (cents: number, currency: string) => formatMoney(cents, currency, lang),
    duration: (seconds: number) => formatDuration(seconds, lang),
    speed: (rate: number) => formatSpeed(rate, lang),
    language: (code: string) => languageName(code, lang),
  };
}
export type Format = ReturnType<typeof createFormat>;

/** The formatters in the language of the current page. */
export function useFormat(): Format {
  const lang = useLang();
  return useMemo(() => createFormat(lang), [lang]);
}
