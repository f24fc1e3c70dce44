import { lazy, type ReactNode, Suspense, useEffect, useLayoutEffect } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet, ScrollRestoration, useLocation } from "react-router";
import { useHandoff } from "@/features/player/lib/handoff";
import { LoadingBar } from "../components/loading-bar";
import { RouteFocus } from "../components/route-focus";
import { clearReloadFlag } from "../lib/chunk-reload";
import { savedLang } from "../lib/cookie";
import { setLanguage } from "../lib/i18n";
import { DEFAULT_LANG, isLang, type Lang, localizePath, toLocale } from "../lib/locale-path";

function setMeta(name: string, content: string): void {
  let tag = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!tag) {
    tag = document.createElement("meta");
    tag.name = name;
    document.head.appendChild(tag);
  }
  tag.content = content;
}

const MiniPlayer = lazy(() => import("@/features/player/components/mini-player"));

/** Root of one locale's routes: the URL prefix sets the UI language (spec §9). */
export function LocaleRoot({ lang }: { lang: Lang }) {
  const { t, i18n } = useTranslation();
  const ready = i18n.language === lang;
  const playingAway = useHandoff() !== null;

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
      <RouteFocus />
      <Outlet />
      {playingAway && (
        <Suspense fallback={null}>
          <MiniPlayer />
        </Suspense>
      )}
    </>
  );
}

/**
 * `/`: the server answers 302 to `/en` (`/es`…) when the language cookie says so; the SPA does
 * the same for the dev server and client-side navigations to `/` from outside.
 */
export function RootRedirect({ children }: { children: ReactNode }) {
  const location = useLocation();
  // Only on the first page load, as the server does: in-app links to `/` stay in French.
  // Only at `/` itself: under `/en` there is nowhere to go (and the server rendered the page).
  const saved = savedLang();
  if (location.key === "default" && location.pathname === "/" && isLang(saved) && saved !== DEFAULT_LANG) {
    return <Navigate to={localizePath("/", saved)} replace />;
  }
  return children;
}

/** Legacy routes of spec §2 lead to their current pages. */
export function LegacyRedirect({ to, state }: { to: (lang: Lang) => string; state?: unknown }) {
  const { i18n } = useTranslation();
  return <Navigate to={to(toLocale(i18n.language))} state={state} replace />;
}
