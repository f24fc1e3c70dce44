import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from "./locales";
import { PERMISSIONS, type PermissionSlug } from "./permissions";

/**
 * The web app's routes and its language prefixes, shared by the React router (apps/web) and
 * the server, which answers 404 for a page no route knows and renders the public pages.
 */

/** Locales of spec §9: `fr` is the default (unprefixed routes), every other one lives under `/<code>`. */
export const LANGS = LOCALES;
export type Lang = Locale;
export const DEFAULT_LANG: Lang = DEFAULT_LOCALE;

export function isLang(value: unknown): value is Lang {
  return isLocale(value);
}

/** Splits `/x?y#z` into the path and the rest (`?y#z`). */
function splitPath(url: string): [string, string] {
  const cut = url.search(/[?#]/);
  return cut === -1 ? [url, ""] : [url.slice(0, cut), url.slice(cut)];
}

/** The prefixed language of a path (`/en/x` → en), null for an unprefixed (default-language) one. */
function prefixOf(path: string): Lang | null {
  const first = path.split("/")[1];
  return first !== DEFAULT_LANG && isLang(first) ? first : null;
}

/** The language a URL is in, read from its prefix. */
export function langFromPath(pathname: string): Lang {
  const [path] = splitPath(pathname);
  return prefixOf(path) ?? DEFAULT_LANG;
}

/** The URL without its language prefix: `/en/profile?a=1` → `/profile?a=1`, `/en` → `/`. */
export function stripLang(url: string): string {
  const [path, rest] = splitPath(url);
  const lang = prefixOf(path);
  if (!lang) return path + rest;
  return (path.slice(lang.length + 1) || "/") + rest;
}

/** Prefixes an unprefixed app path for a language: (`/profile`, en) → `/en/profile`, (`/`, en) → `/en`. */
export function localizePath(url: string, lang: Lang): string {
  const [path, rest] = splitPath(url.startsWith("/") ? url : `/${url}`);
  if (lang === DEFAULT_LANG) return path + rest;
  return (path === "/" ? `/${lang}` : `/${lang}${path}`) + rest;
}

/** The same page in the other language: `/courses?x` ↔ `/en/courses?x`. */
export function switchLangPath(url: string, lang: Lang): string {
  return localizePath(stripLang(url), lang);
}

/**
 * Every route of spec §2, unprefixed (French). English routes are the same under `/en`
 * (see localizePath). Patterns are relative to the locale root.
 */
export const routes = {
  home: "",
  faqs: "faqs",
  contact: "contact",
  login: "auth/login",
  loginCallback: "login",
  logout: "logout",
  forgotPassword: "forgot-password",
  resetPassword: "reset-password/:token?",
  resetUserPassword: "reset-user-password",
  activate: "activate/:token?",
  unlock: "unlock/:token",
  courses: "courses",
  coursesMore: "courses/more",
  course: "courses/:id",
  pricing: "pricing",
  events: "events",
  event: "events/:id",
  legal: "legal/:page",
  certificateVerify: "c/:code",
  // legacy
  indexOld: "index_old",
  indexV1: "indexv1",
  loginOld: "login_old",
  registerOld: "register_old",
  slugIndexOld: ":slug/index_old",
  // app (signed in)
  dashboard: "dashboard",
  profile: "profile",
  changePassword: "change-password",
  billing: "billing",
  subscriptionPayment: "billing/subscription-payment",
  purchasePayment: "billing/purchase-payment",
  upgradePayment: "billing/upgrade-payment",
  receipt: "billing/receipts/:id",
  paypal: "paypal",
  card: "Card/:id",
  protected: "protected",
  plans: "plans",
  setting: "setting",
  users: "User",
  userCreate: "User/create",
  customers: "User/customers",
  roles: "User/roles",
  userEdit: "User/edit/:id?",
  mailSend: "mail/send",
  mailTemplates: "mail/templates",
  eventsManage: "events/manage",
  configs: "configs",
  audit: "audit",
  sales: "sales",
  salesReport: "sales/report",
  coupons: "coupons",
  dataRequests: "data-requests",
  courseCreate: "courses/create",
  courseEdit: "courses/edit",
  lessons: "courses/:id/lessons",
  lesson: "courses/:id/lessons/:lessonId",
  review: "review",
  practice: "practice",
  practiceHandsFree: "practice/hands-free",
  welcome: "welcome",
  downloads: "downloads",
  certificate: "certificates/:id",
  certificates: "certificates",
  analytics: "analytics",
  mailPreferences: "profile/mail",
  unsubscribe: "unsubscribe/:token",
} as const;

export type WebRouteName = keyof typeof routes;

/** Public pages (unprefixed) that search engines should index: in the sitemap, in both languages. */
export const PUBLIC_PAGES = [
  "/",
  "/courses",
  "/pricing",
  "/faqs",
  "/contact",
  "/events",
  "/legal/legal-notice",
  "/legal/privacy",
  "/legal/terms",
  "/legal/cookies",
] as const;

/** Public pages that arrive rendered by the server (with their data), then hydrate. */
export const SERVER_RENDERED_ROUTES: readonly WebRouteName[] = [
  "home",
  "courses",
  "coursesMore",
  "course",
  "pricing",
  "faqs",
  "contact",
  "legal",
];

/**
 * The query parameters a server-rendered page reads (`useSearchParams`), with the values it acts
 * on. Any other parameter or value changes nothing on the page: the server renders and keeps the
 * page without it, so that unique query strings cannot make it render page after page.
 */
export const RENDERED_QUERY: Partial<Record<WebRouteName, Record<string, readonly string[]>>> = {
  pricing: { checkout: ["cancelled"] },
};

/** Pages behind sign-in or for staff only, and the account flows: never indexed (robots.txt). */
export const PRIVATE_ROUTES: readonly WebRouteName[] = [
  "login",
  "loginCallback",
  "logout",
  "forgotPassword",
  "resetPassword",
  "resetUserPassword",
  "activate",
  "unlock",
  "dashboard",
  "profile",
  "changePassword",
  "billing",
  "receipt",
  "paypal",
  "card",
  "protected",
  "plans",
  "setting",
  "users",
  "mailSend",
  "mailTemplates",
  "eventsManage",
  "configs",
  "audit",
  "sales",
  "salesReport",
  "coupons",
  "dataRequests",
  "courseCreate",
  "courseEdit",
  "lessons",
  "review",
  "practice",
  "practiceHandsFree",
  "downloads",
  "certificate",
  "certificates",
  "certificateVerify",
  "analytics",
  "mailPreferences",
  "unsubscribe",
];

export interface WebRouteMatch {
  lang: Lang;
  name: WebRouteName;
  params: Record<string, string>;
}

interface CompiledRoute {
  name: WebRouteName;
  segments: string[];
  score: number;
}

/** Static segments outrank parameters, as in React Router: `courses/more` wins over `courses/:id`. */
const compiled: CompiledRoute[] = (Object.entries(routes) as [WebRouteName, string][])
  .map(([name, pattern]) => {
    const segments = pattern.split("/").filter(Boolean);
    const score = segments.reduce((sum, s) => sum + (s.startsWith(":") ? (s.endsWith("?") ? 2 : 3) : 10), 0);
    return { name, segments, score };
  })
  .sort((a, b) => b.score - a.score);

function matchSegments(route: CompiledRoute, parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  let i = 0;
  for (const segment of route.segments) {
    const part = parts[i];
    if (segment.startsWith(":")) {
      const optional = segment.endsWith("?");
      const key = segment.slice(1, optional ? -1 : undefined);
      if (part === undefined) {
        if (optional) continue;
        return null;
      }
      params[key] = safeDecode(part);
    } else if (part === undefined || part.toLowerCase() !== segment.toLowerCase()) {
      return null; // React Router matches case-insensitively by default
    }
    i++;
  }
  return i === parts.length ? params : null;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * The route a URL path leads to (the one React Router renders), or null for a page that does
 * not exist (the router's `*`: the not-found page).
 */
export function matchWebRoute(pathname: string): WebRouteMatch | null {
  const [path] = splitPath(pathname);
  const lang = langFromPath(path);
  const parts = stripLang(path).split("/").filter(Boolean);
  for (const route of compiled) {
    const params = matchSegments(route, parts);
    if (params) return { lang, name: route.name, params };
  }
  return null;
}

/** A path that no route matches: where the not-found page of a language is rendered. */
const NOT_FOUND_PATH = "/not-found";

/**
 * The URL a server-rendered page is rendered at and kept under: its route's path spelt as the
 * route declares it (case, slashes), in its language, with only the query parameters the page
 * reads (RENDERED_QUERY); a path no route matches is the not-found page of its language.
 */
export function renderedPageUrl(url: string, match: WebRouteMatch | null): string {
  const [path, rest] = splitPath(url);
  if (!match) return localizePath(NOT_FOUND_PATH, langFromPath(path));
  const route = routes[match.name]
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      if (!segment.startsWith(":")) return segment;
      const value = match.params[segment.slice(1).replace(/\?$/, "")];
      return value === undefined ? "" : encodeURIComponent(value);
    })
    .filter(Boolean)
    .join("/");
  const known = RENDERED_QUERY[match.name] ?? {};
  const given = new Map<string, string>();
  for (const pair of rest.replace(/#.*$/, "").replace(/^\?/, "").split("&")) {
    const [name = "", value = ""] = pair.split("=").map((part) => safeDecode(part.replaceAll("+", " ")));
    if (!given.has(name)) given.set(name, value);
  }
  // the known values are plain words: they need no encoding
  const query = Object.entries(known)
    .filter(([name, values]) => values.includes(given.get(name) ?? "\0"))
    .map(([name]) => `${name}=${given.get(name)}`)
    .join("&");
  return localizePath(`/${route}`, match.lang) + (query ? `?${query}` : "");
}

/**
 * The web app manifest of a language (names, description and start page in it): the default's at
 * `/manifest.webmanifest`, every other one's at `/manifest.<code>.webmanifest`. The build writes
 * one per language; each page links its own.
 */
export function manifestPath(lang: Lang): string {
  return lang === DEFAULT_LANG ? "/manifest.webmanifest" : `/manifest.${lang}.webmanifest`;
}

/**
 * The staff pages and the permission each needs: the web router's guards (checked against this
 * list by a web test) and the server's page status (403 to a signed-in reader without it).
 */
export const STAFF_PAGE_PERMISSIONS: Partial<Record<WebRouteName, PermissionSlug>> = {
  courseCreate: PERMISSIONS.coursesManage,
  courseEdit: PERMISSIONS.coursesManage,
  plans: PERMISSIONS.plansManage,
  setting: PERMISSIONS.settingsManage,
  users: PERMISSIONS.usersRead,
  customers: PERMISSIONS.usersRead,
  userCreate: PERMISSIONS.usersManage,
  userEdit: PERMISSIONS.usersManage,
  roles: PERMISSIONS.rolesManage,
  eventsManage: PERMISSIONS.eventsManage,
  configs: PERMISSIONS.configsManage,
  audit: PERMISSIONS.auditRead,
  sales: PERMISSIONS.customerPlansManage,
  salesReport: PERMISSIONS.customerPlansManage,
  coupons: PERMISSIONS.plansManage,
  dataRequests: PERMISSIONS.privacyManage,
  certificates: PERMISSIONS.certificatesManage,
  analytics: PERMISSIONS.analyticsRead,
  mailSend: PERMISSIONS.mailManage,
  mailTemplates: PERMISSIONS.mailManage,
};
