import { isLocalPath } from "@parlons/contract";
import { pagePath } from "@/lib/paths";
import { type Lang, localizePath } from "./locale-path";

export const REDIRECT_PARAM = "redirect";

/**
 * Where to go after login: the remembered path when it is a local one (never an open
 * redirect), otherwise the dashboard in the current language.
 */
export function afterLoginPath(remembered: string | null | undefined, lang: Lang): string {
  if (isLocalPath(remembered) && !isAuthPage(remembered)) return remembered;
  return localizePath(pagePath("dashboard"), lang);
}

/** Pages that must never be the target after login (it would loop back to login). */
function isAuthPage(path: string): boolean {
  const bare = path.replace(/^\/en(?=\/|$|\?)/, "") || "/";
  return /^\/(auth\/login|login|logout)(\/|\?|$)/.test(bare);
}

/** The login page URL that remembers where the visitor wanted to go. */
export function loginPathFor(current: string, lang: Lang): string {
  const login = localizePath(pagePath("login"), lang);
  if (!isLocalPath(current) || isAuthPage(current)) return login;
  return `${login}?${REDIRECT_PARAM}=${encodeURIComponent(current)}`;
}
