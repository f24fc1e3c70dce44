/**
 * The site's languages: the one list the API, the mails, the routes (`/en/…`), `hreflang` and the
 * sitemap follow. Each one has its catalogue folder in `apps/web/src/locales/<code>/` (a test
 * checks that folders and list agree). French is the default: its routes carry no prefix. No zod
 * here: the routes import this file into the first chunk (the schema is in locale-schema.ts).
 */
export const LOCALES = ["fr", "en", "es"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "fr";

/** The locales in capitals, as a user's `speak` and a receipt's or delivery's `lang` store them. */
export const SPEAK_CODES = LOCALES.map((l) => l.toUpperCase()) as [Uppercase<Locale>, ...Uppercase<Locale>[]];

/** The URL prefix of a language: "" for the default, `/en` for English… */
export function langPrefix(lang: Locale): string {
  return lang === DEFAULT_LOCALE ? "" : `/${lang}`;
}

export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value);
}

/**
 * The reader's language from an `Accept-Language` header (`en-GB,en;q=0.9,fr;q=0.8`): the site's
 * locale the browser prefers most, by quality then order; null when it names none of them.
 */
export function fromAcceptLanguage(header: string | null | undefined): Locale | null {
  let best: { locale: Locale; q: number; index: number } | null = null;
  (header ?? "").split(",").forEach((part, index) => {
    const [tag = "", ...params] = part.trim().toLowerCase().split(";");
    const locale = tag.split("-")[0];
    if (!isLocale(locale)) return;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) return;
    if (!best || q > best.q) best = { locale, q, index };
  });
  return (best as { locale: Locale } | null)?.locale ?? null;
}

/** A language code from anywhere (a query, a cookie, `FR` in a user row): the locale, else the default. */
export function toLocale(value: string | null | undefined): Locale {
  const code = value?.toLowerCase();
  return isLocale(code) ? code : DEFAULT_LOCALE;
}

/**
 * The fallback rule for data that has a language (a course title, a plan name, a subject):
 * the reader's language, else English, else French (the default), else whichever text there is.
 * A text counts when it holds something other than spaces.
 */
export function fallbackChain(lang: Locale): Locale[] {
  return [...new Set<Locale>([lang, ...LOCALES.filter((l) => l === "en"), DEFAULT_LOCALE, ...LOCALES])];
}

/** The text of `texts` for a reader of `lang`, by the fallback rule ("" when there is none). */
export function pickText(texts: Partial<Record<Locale, string | null | undefined>>, lang: Locale): string {
  for (const l of fallbackChain(lang)) {
    const text = texts[l];
    if (text?.trim()) return text;
  }
  return "";
}

/**
 * A field of a row stored per language as `<base>_fr`, `<base>_en`… (`title_fr`), read by the
 * fallback rule.
 */
export function pickField(row: object, base: string, lang: Locale): string {
  const record = row as Record<string, unknown>;
  const texts: Partial<Record<Locale, string>> = {};
  for (const l of LOCALES) {
    const value = record[`${base}_${l}`];
    if (typeof value === "string") texts[l] = value;
  }
  return pickText(texts, lang);
}

/** A list stored per language as `<base>_fr`, `<base>_en`… (a plan's features), by the fallback rule. */
export function pickList(row: object, base: string, lang: Locale): string[] {
  const record = row as Record<string, unknown>;
  for (const l of fallbackChain(lang)) {
    const value = record[`${base}_${l}`];
    if (Array.isArray(value) && value.length > 0) return value.map(String);
  }
  return [];
}

/**
 * Locales whose content texts (course, lesson, event and plan titles, descriptions, features)
 * have columns of their own: French, the default and required, and English, the first fallback
 * and required too. Every other locale of the list is a key of the row's `translations` and a
 * `<field>_<locale>` field of the API (`title_es`): adding a locale to LOCALES adds its fields,
 * with no migration.
 */
export const COLUMN_LOCALES = ["fr", "en"] as const satisfies readonly Locale[];
export type TranslatedLocale = Exclude<Locale, (typeof COLUMN_LOCALES)[number]>;
export const TRANSLATED_LOCALES = LOCALES.filter(
  (l): l is TranslatedLocale => !(COLUMN_LOCALES as readonly Locale[]).includes(l),
);

/** A row's `translations`: by locale, the texts of its fields in that locale (a field absent: none). */
export type Translations<F extends string, V = string> = Partial<
  Record<TranslatedLocale, Partial<Record<F, V>>>
>;

/** The API's names of a field in the translated locales: `title` → `title_es`. */
export type TranslatedKey<F extends string> = `${F}_${TranslatedLocale}`;

/** A plan's `translations`: name, description and features by locale. */
export type PlanTranslations = Partial<
  Record<TranslatedLocale, { name?: string; description?: string; features?: string[] }>
>;
