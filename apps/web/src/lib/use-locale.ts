import { useCallback } from "react";
import { useLocation } from "react-router";
import { type Lang, langFromPath, localizePath } from "./locale-path";

/** The language of the current URL. */
export function useLang(): Lang {
  return langFromPath(useLocation().pathname);
}

/** Turns an unprefixed path into the current language's URL. */
export function useLocalePath(): (path: string) => string {
  const lang = useLang();
  return useCallback((path: string) => localizePath(path, lang), [lang]);
}
