import type { Locale } from "@parlons/contract";
import { en } from "./en";
import { es } from "./es";
import { type Catalogue, fr } from "./fr";

export type { Catalogue };

/**
 * The server's words, one catalogue per language of `LOCALES` (typed `Record<Locale, …>`: a
 * language added to the contract makes the compiler ask for its catalogue).
 */
export const catalogues: Record<Locale, Catalogue> = { fr, en, es };

/** The catalogue of a language. */
export const wordsOf = (lang: Locale): Catalogue => catalogues[lang];

/** A text with its `{{placeholders}}` filled in (an unknown one is left as it is). */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** `<key>_one` or `<key>_other` of a group, by the language's plural rule (French: 0 and 1 are one), filled with `{{count}}`. */
export function counted<K extends string>(
  group: Record<`${K}_one` | `${K}_other`, string>,
  key: K,
  count: number,
  lang: Locale,
): string {
  const form =
    new Intl.PluralRules(lang).select(count) === "one" ? group[`${key}_one`] : group[`${key}_other`];
  return fill(form, { count });
}
