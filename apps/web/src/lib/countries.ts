/**
 * The world's countries by ISO 3166-1 alpha-2 code, named in the page's language by the browser
 * (`Intl.DisplayNames`): no list to keep in the app. Codes that name no country (EU, UN, the
 * private-use ones) are left out.
 */
const NOT_COUNTRIES = new Set(["EU", "EZ", "UN", "QO", "ZZ", "XA", "XB"]);
const cache = new Map<string, { value: string; label: string }[]>();

export function countryOptions(lang: string): { value: string; label: string }[] {
  const kept = cache.get(lang);
  if (kept) return kept;
  const names = new Intl.DisplayNames([lang], { type: "region", fallback: "none" });
  const out: { value: string; label: string }[] = [];
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      // an old code that now means another (UK → GB, SU → RU) is left for the one it means
      if (NOT_COUNTRIES.has(code) || new Intl.Locale(`und-${code}`).region !== code) continue;
      const label = names.of(code);
      if (label && label !== code) out.push({ value: code, label });
    }
  }
  out.sort((x, y) => x.label.localeCompare(y.label, lang));
  cache.set(lang, out);
  return out;
}

/** The country of the browser's language when it names one ("fr-BE" → "BE"), else undefined. */
export function browserCountry(): string | undefined {
  const region = typeof navigator === "undefined" ? undefined : navigator.language.split("-")[1];
  return region && /^[A-Z]{2}$/.test(region) ? region : undefined;
}

export function countryLabel(code: string, lang: string): string {
  return new Intl.DisplayNames([lang], { type: "region", fallback: "code" }).of(code) ?? code;
}
