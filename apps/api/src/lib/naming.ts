import {
  type Locale,
  TRANSLATED_LOCALES,
  type TranslatedKey,
  type TranslatedLocale,
  type Translations,
} from "@parlons/contract";

/**
 * Courses, events and plans are titled and described in French and English columns, and in the
 * other locales in the row's `translations` (see COLUMN_LOCALES in the contract): the same fields
 * in the API (`title_fr`, `title_es`…) and the same columns (`titleFr`…), mapped here once each way.
 */
interface NamingFields<T> {
  title_fr: T;
  title_en: T;
  description_fr: T;
  description_en: T;
}

interface NamingColumns<T> {
  titleFr: T;
  titleEn: T;
  descriptionFr: T;
  descriptionEn: T;
}

const NAMING = ["title", "description"] as const;
type NamingField = (typeof NAMING)[number];

/** A body's titles and descriptions as columns (undefined stays undefined in a partial update). */
export function namingColumns<B extends Partial<NamingFields<string>>>(
  body: B,
): {
  titleFr: B["title_fr"];
  titleEn: B["title_en"];
  descriptionFr: B["description_fr"];
  descriptionEn: B["description_en"];
} {
  return {
    titleFr: body.title_fr,
    titleEn: body.title_en,
    descriptionFr: body.description_fr,
    descriptionEn: body.description_en,
  };
}

/** A row's titles and descriptions as the API names them, in every locale. */
export function namingFields(
  row: NamingColumns<string> & { translations: Translations<NamingField> },
): NamingFields<string> & Record<TranslatedKey<NamingField>, string> {
  return {
    title_fr: row.titleFr,
    title_en: row.titleEn,
    description_fr: row.descriptionFr,
    description_en: row.descriptionEn,
    ...translatedFields(row.translations, NAMING, ""),
  };
}

/** Stored titles and descriptions with a body's `title_es`… written over them (undefined: none given). */
export const namingTranslations = (
  stored: Translations<NamingField>,
  body: Partial<Record<TranslatedKey<NamingField>, string>>,
) => withTranslations(stored, body, NAMING);

/** A row's translations as the API's `<field>_<locale>` fields (`empty` where a locale has none). */
export function translatedFields<T extends object, F extends keyof T & string>(
  translations: Partial<Record<TranslatedLocale, T>>,
  fields: readonly F[],
  empty: NonNullable<T[F]>,
): Record<TranslatedKey<F>, NonNullable<T[F]>> {
  const out: Record<string, NonNullable<T[F]>> = {};
  for (const locale of TRANSLATED_LOCALES)
    for (const field of fields) out[`${field}_${locale}`] = translations[locale]?.[field] ?? empty;
  return out as Record<TranslatedKey<F>, NonNullable<T[F]>>;
}

const isEmpty = (value: unknown) =>
  typeof value === "string" ? value.trim() === "" : Array.isArray(value) && value.length === 0;

/**
 * Stored translations with a body's `<field>_<locale>` values written over them: a field left out
 * keeps its text, an empty one ("" or []) removes it (the reader then gets the fallback).
 * Undefined when the body names none (nothing to write).
 */
export function withTranslations<T extends object>(
  stored: Partial<Record<TranslatedLocale, T>>,
  body: object,
  fields: readonly (keyof T & string)[],
): Partial<Record<TranslatedLocale, T>> | undefined {
  const given = body as Record<string, unknown>;
  let changed = false;
  const next: Partial<Record<TranslatedLocale, T>> = { ...stored };
  for (const locale of TRANSLATED_LOCALES) {
    const texts: Record<string, unknown> = { ...stored[locale] };
    for (const field of fields) {
      const value = given[`${field}_${locale}`];
      if (value === undefined) continue;
      changed = true;
      if (isEmpty(value)) delete texts[field];
      else texts[field] = value;
    }
    if (Object.keys(texts).length > 0) next[locale] = texts as T;
    else delete next[locale];
  }
  return changed ? next : undefined;
}

/**
 * A field's texts in every locale, for `pickText` on the server (a mail, a calendar file, a feed):
 * the French and English columns and the translations.
 */
export function textsOf<F extends string>(
  fr: string,
  en: string,
  translations: Translations<F>,
  field: F,
): Partial<Record<Locale, string>> {
  const texts: Partial<Record<Locale, string>> = { fr, en };
  for (const locale of TRANSLATED_LOCALES)
    texts[locale satisfies TranslatedLocale] = translations[locale]?.[field];
  return texts;
}
