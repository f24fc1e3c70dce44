import type { Lang } from "./locale-path";

export const LANG_COOKIE = "i18n_redirected";
const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The `document.cookie` assignment that remembers the language for 365 days (spec §9). */
export function langCookie(lang: Lang, now: Date = new Date()): string {
  const expires = new Date(now.getTime() + YEAR_SECONDS * 1000).toUTCString();
  return `${LANG_COOKIE}=${lang}; Max-Age=${YEAR_SECONDS}; Expires=${expires}; Path=/; SameSite=Lax`;
}

/** Reads one cookie from a `document.cookie` string. */
export function readCookie(cookies: string, name: string): string | null {
  for (const part of cookies.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return part.slice(eq + 1).trim();
      }
    }
  }
  return null;
}

export function saveLang(lang: Lang): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser we support
  document.cookie = langCookie(lang);
}

export function savedLang(): string | null {
  return typeof document === "undefined" ? null : readCookie(document.cookie, LANG_COOKIE);
}
