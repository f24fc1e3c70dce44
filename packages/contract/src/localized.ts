import { z } from "zod";
import { TRANSLATED_LOCALES, type TranslatedKey } from "./locales";

/**
 * One field per translated locale (`title_es`…), each of `schema`: how the contract names the
 * texts a row keeps in its `translations` (see COLUMN_LOCALES).
 */
export function perLocale<F extends string, S extends z.ZodType>(
  field: F,
  schema: S,
): { [K in TranslatedKey<F>]: S } {
  return Object.fromEntries(TRANSLATED_LOCALES.map((l) => [`${field}_${l}`, schema])) as {
    [K in TranslatedKey<F>]: S;
  };
}

/** The same fields, optional: an update that leaves one out keeps what is stored. */
export function perLocaleOptional<F extends string, S extends z.ZodType>(
  field: F,
  schema: S,
): { [K in TranslatedKey<F>]: z.ZodOptional<S> } {
  return Object.fromEntries(TRANSLATED_LOCALES.map((l) => [`${field}_${l}`, schema.optional()])) as {
    [K in TranslatedKey<F>]: z.ZodOptional<S>;
  };
}

/** Fields of a response: the text in each translated locale, "" when there is none. */
export const perLocaleText = <F extends string>(field: F) => perLocale(field, z.string());
