/**
 * The web app's routes and its language prefixes, shared by the React router (apps/web) and
 * the server, which answers 404 for a page no route knows and renders the public pages.
 */

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
  courses: "courses",
  coursesMore: "courses/more",
  course: "courses/:id",
  pricing: "pricing",
  events: "events",
  event: "events/:id",
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
  upgradePayment: "billing/upgrade-payment",
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
  courseCreate: "courses/create",
  courseEdit: "courses/edit",
  lessons: "courses/:id/lessons",
  lesson: "courses/:id/lessons/:lessonId",
} as const;

export type WebRouteName = keyof typeof routes;

/** Public pages (unprefixed) that search engines should index: in the sitemap, in both languages. */
export const PUBLIC_PAGES = ["/", "/courses", "/pricing", "/faqs", "/contact", "/events"] as const;

/** Public pages that arrive rendered by the server (with their data), then hydrate. */
export const SERVER_RENDERED_ROUTES: readonly WebRouteName[] = [
  "home",
  "courses",
  "coursesMore",
  "course",
  "pricing",
  "faqs",
  "contact",
];

/** Pages behind sign-in or for staff only, and the account flows: never indexed (robots.txt). */
export const PRIVATE_ROUTES: readonly WebRouteName[] = [
  "login",
  "loginCallback",
  "logout",
  "forgotPassword",
  "resetPassword",
  "resetUserPassword",
  "activate",
  "dashboard",
  "profile",
  "changePassword",
  "billing",
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
  "courseCreate",
  "courseEdit",
  "lessons",
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
