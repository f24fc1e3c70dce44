import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import enApp from "../locales/en/app.json";
import enAudit from "../locales/en/audit.json";
import enAuth from "../locales/en/auth.json";
import enBilling from "../locales/en/billing.json";
import enCommon from "../locales/en/common.json";
import enCourses from "../locales/en/courses.json";
import enErrors from "../locales/en/errors.json";
import enEvents from "../locales/en/events.json";
import enMail from "../locales/en/mail.json";
import enNotifications from "../locales/en/notifications.json";
import enPlayer from "../locales/en/player.json";
import enSettings from "../locales/en/settings.json";
import enSite from "../locales/en/site.json";
import enUsers from "../locales/en/users.json";
import frApp from "../locales/fr/app.json";
import frAudit from "../locales/fr/audit.json";
import frAuth from "../locales/fr/auth.json";
import frBilling from "../locales/fr/billing.json";
import frCommon from "../locales/fr/common.json";
import frCourses from "../locales/fr/courses.json";
import frErrors from "../locales/fr/errors.json";
import frEvents from "../locales/fr/events.json";
import frMail from "../locales/fr/mail.json";
import frNotifications from "../locales/fr/notifications.json";
import frPlayer from "../locales/fr/player.json";
import frSettings from "../locales/fr/settings.json";
import frSite from "../locales/fr/site.json";
import frUsers from "../locales/fr/users.json";
import { DEFAULT_LANG, type Lang, langFromPath } from "./locale-path";

export const resources = {
  fr: {
    common: frCommon,
    auth: frAuth,
    errors: frErrors,
    site: frSite,
    app: frApp,
    billing: frBilling,
    courses: frCourses,
    player: frPlayer,
    settings: frSettings,
    mail: frMail,
    events: frEvents,
    users: frUsers,
    notifications: frNotifications,
    audit: frAudit,
  },
  en: {
    common: enCommon,
    auth: enAuth,
    errors: enErrors,
    site: enSite,
    app: enApp,
    billing: enBilling,
    courses: enCourses,
    player: enPlayer,
    settings: enSettings,
    mail: enMail,
    events: enEvents,
    users: enUsers,
    notifications: enNotifications,
    audit: enAudit,
  },
} as const;

export const NAMESPACES = [
  "common",
  "auth",
  "errors",
  "site",
  "app",
  "billing",
  "courses",
  "player",
  "settings",
  "mail",
  "events",
  "users",
  "notifications",
  "audit",
] as const;

export function initI18n(pathname: string): typeof i18n {
  if (i18n.isInitialized) return i18n;
  void i18n.use(initReactI18next).init({
    resources,
    lng: langFromPath(pathname),
    fallbackLng: DEFAULT_LANG,
    supportedLngs: ["fr", "en"],
    ns: [...NAMESPACES],
    defaultNS: "common",
    interpolation: { escapeValue: false },
    initAsync: false,
    returnNull: false,
  });
  return i18n;
}

/** Switches the UI language; resources are bundled so this completes synchronously. */
export function setLanguage(lang: Lang): void {
  if (i18n.language !== lang) void i18n.changeLanguage(lang);
}

export function currentLang(): Lang {
  return i18n.language === "en" ? "en" : "fr";
}

export { i18n };
