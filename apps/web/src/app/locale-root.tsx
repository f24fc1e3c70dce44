import { type ReactNode, useEffect, useLayoutEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet, ScrollRestoration, useLocation } from "react-router";
import { LoadingBar } from "../components/loading-bar";
import { clearReloadFlag } from "../lib/chunk-reload";
import { savedLang } from "../lib/cookie";
import { setLanguage } from "../lib/i18n";
import type { Lang } from "../lib/locale-path";

function setMeta(name: string, content: string): void {
  let tag = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!tag) {
    tag = document.createElement("meta");
    tag.name = name;
    document.head.appendChild(tag);
  }
  tag.content = content;
}

/** Root of one locale's routes: the URL prefix sets the UI language (spec §9). */
export function LocaleRoot({ lang }: { lang: Lang }) {
  const { t, i18n } = useTranslation();
  const ready = i18n.language === lang;

  useLayoutEffect(() => {
    setLanguage(lang);
  }, [lang]);

  useEffect(() => {
    if (!ready) return;
    document.documentElement.lang = lang;
    setMeta("keywords", t("common:meta.keywords"));
  }, [ready, lang, t]);

  useEffect(() => {
    clearReloadFlag();
  }, []);

  if (!ready) return null;
  return (
    <>
      <LoadingBar />
      <ScrollRestoration />
      <Outlet />
    </>
  );
}

/**
 * `/`: the server answers 302 to `/en` when the language cookie says `en`; the SPA does
 * the same for the dev server and client-side navigations to `/` from outside.
 */
export function RootRedirect({ children }: { children: ReactNode }) {
  const location = useLocation();
  // Only on the first page load, as the server does: in-app links to `/` stay in French.
  // Only at `/` itself: under `/en` there is nowhere to go (and the server rendered the page).
  if (location.key === "default" && location.pathname === "/" && savedLang() === "en") {
    return <Navigate to="/en" replace />;
  }
  return children;
}

/** Legacy routes of spec §2 lead to their current pages. */
export function LegacyRedirect({ to, state }: { to: (lang: Lang) => string; state?: unknown }) {
  const { i18n } = useTranslation();
  return <Navigate to={to(i18n.language === "en" ? "en" : "fr")} state={state} replace />;
}
