/**
 * The letters a phone keyboard hides behind a long press, per language taught: shown as keys
 * above the answer box. English needs none.
 */
const KEYS: Record<string, string[]> = {
  fr: ["é", "è", "ê", "à", "â", "ç", "ù", "û", "î", "ï", "ô", "ë", "œ", "«", "»"],
  es: ["á", "é", "í", "ó", "ú", "ñ", "ü", "¿", "¡"],
};

export function accentKeysOf(language: string): string[] {
  return KEYS[language.slice(0, 2).toLowerCase()] ?? [];
}
