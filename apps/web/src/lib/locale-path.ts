/** Locales of spec §9: `fr` is the default (unprefixed routes), `en` lives under `/en`. */
export const LANGS = ["fr", "en"] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = "fr";

export function isLang(value: unknown): value is Lang {
  return value === "fr" || value === "en";
}

/** Splits `/x?y#z` into the path and the rest (`?y#z`). */
function splitPath(url: string): [string, string] {
  const cut = url.search(/[?#]/);
  return cut === -1 ? [url, ""] : [url.slice(0, cut), url.slice(cut)];
}

/** The language a URL is in, read from its prefix. */
export function langFromPath(pathname: string): Lang {
  const [path] = splitPath(pathname);
  return path === "/en" || path.startsWith("/en/") ? "en" : DEFAULT_LANG;
}

/** The URL without its language prefix: `/en/profile?a=1` → `/profile?a=1`, `/en` → `/`. */
export function stripLang(url: string): string {
  const [path, rest] = splitPath(url);
  if (path === "/en") return `/${rest}`;
  if (path.startsWith("/en/")) return path.slice(3) + rest;
  return path + rest;
}

/** Prefixes an unprefixed app path for a language: (`/profile`, en) → `/en/profile`, (`/`, en) → `/en`. */
export function localizePath(url: string, lang: Lang): string {
  const [path, rest] = splitPath(url.startsWith("/") ? url : `/${url}`);
  if (lang === DEFAULT_LANG) return path + rest;
  return (path === "/" ? "/en" : `/en${path}`) + rest;
}

/** The same page in the other language: `/courses?x` ↔ `/en/courses?x`. */
export function switchLangPath(url: string, lang: Lang): string {
  return localizePath(stripLang(url), lang);
}
