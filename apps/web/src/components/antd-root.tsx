import { App as AntApp, ConfigProvider, theme } from "antd";
import AppContext, { type useAppProps } from "antd/es/app/context";
import type { Locale } from "antd/es/locale";
// the ES build: antd/locale/* is CommonJS and drags the CommonJS pickers in
import enUS from "antd/es/locale/en_US";
import esES from "antd/es/locale/es_ES";
import frFR from "antd/es/locale/fr_FR";
import { type ReactNode, useEffect, useMemo, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { announceAntdHost } from "../lib/antd-host";
import "../lib/dayjs-locales";
import { bindFeedback } from "../lib/feedback";

export const appTheme = {
  algorithm: theme.defaultAlgorithm,
  token: {
    colorPrimary: "#2f54eb",
    // antd's lighter hover shade (#597ef7) gives white button text 3.65:1: darker shades keep ≥ 4.5:1
    colorPrimaryHover: "#1d39c4",
    colorPrimaryActive: "#10239e",
    colorLinkHover: "#10239e",
    colorLinkActive: "#10239e",
    borderRadius: 8,
    // antd's greys fail WCAG AA contrast on our light backgrounds: darker secondary texts
    colorLink: "#1d39c4",
    colorError: "#cf1322",
    colorTextSecondary: "rgba(0, 0, 0, 0.68)",
    colorTextDescription: "rgba(0, 0, 0, 0.66)",
    colorTextTertiary: "rgba(0, 0, 0, 0.64)",
    // placeholders are read as text by axe too (antd's 0.25 gives 1.9:1)
    colorTextPlaceholder: "rgba(0, 0, 0, 0.6)",
    fontFamily:
      "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
  components: {
    // an empty table's "no data" is drawn in the disabled grey: readable instead
    Table: { colorTextDisabled: "rgba(0, 0, 0, 0.6)" },
    // the preset tags' text shades (x7) are too light on their pale backgrounds for WCAG AA
    Tag: {
      green7: "#236b0b",
      gold7: "#874d00",
      orange7: "#873800",
      red7: "#a8071a",
      colorSuccess: "#236b0b",
      colorWarning: "#874d00",
    },
  },
};

/** antd's own words (pickers, pagination, empty states); a language antd lacks here reads English. */
const ANTD_LOCALES: Record<string, Locale> = { fr: frFR, en: enUS, es: esES };

const REDUCED_MOTION = "(prefers-reduced-motion: reduce)";

/** True while the reader's system asks for reduced motion (it may change while the page is open). */
function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (listener) => {
      const query = window.matchMedia?.(REDUCED_MOTION);
      query?.addEventListener("change", listener);
      return () => query?.removeEventListener("change", listener);
    },
    () => window.matchMedia?.(REDUCED_MOTION).matches ?? false,
    () => false,
  );
}

function Theme({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  const reduced = usePrefersReducedMotion();
  // reduced motion: dialogs, drawers, menus and toasts appear and go without animating
  const themed = useMemo(
    () => (reduced ? { ...appTheme, token: { ...appTheme.token, motion: false } } : appTheme),
    [reduced],
  );
  return (
    <ConfigProvider locale={ANTD_LOCALES[i18n.language] ?? enUS} theme={themed}>
      {children}
    </ConfigProvider>
  );
}

// ---- the host's message, notification and modal, shared by every AntdRoot ----
let shared: useAppProps | null = null;
const listeners = new Set<() => void>();
function share(api: useAppProps | null) {
  shared = api;
  for (const listener of listeners) listener();
}
function useShared(): useAppProps | null {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => shared,
    () => null,
  );
}

function HostBridge() {
  const api = AntApp.useApp();
  useEffect(() => {
    share(api);
    const unbind = bindFeedback(api.message, api.notification);
    return () => {
      unbind();
      share(null);
    };
  }, [api]);
  return null;
}

/**
 * Mounted once beside the routes (AntdHostSlot) after antd first loads: its toasts and dialogs
 * outlive the page that opened them (a toast, then a navigation), and the API client uses it.
 */
function AntdHost() {
  return (
    <Theme>
      <AntApp component={false}>
        <HostBridge />
      </AntApp>
    </Theme>
  );
}
announceAntdHost(AntdHost);

/** `App.useApp()` below gives the host's instances once it is there, this root's own until then. */
function UseHost({ children }: { children: ReactNode }) {
  const own = AntApp.useApp();
  const host = useShared();
  return <AppContext.Provider value={host ?? own}>{children}</AppContext.Provider>;
}

/**
 * antd's theme, locale and <App>. Not in the first chunk: the home and course pages are plain
 * markup; the pages, dialogs and shell built with antd load it with their own chunk and wrap
 * themselves in it (see with-antd).
 */
export function AntdRoot({ children }: { children: ReactNode }) {
  return (
    <Theme>
      <AntApp>
        <UseHost>{children}</UseHost>
      </AntApp>
    </Theme>
  );
}
