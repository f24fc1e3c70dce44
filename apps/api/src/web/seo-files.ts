import {
  DEFAULT_LOCALE,
  LOCALES,
  langPrefix,
  localizePath,
  PRIVATE_ROUTES,
  PUBLIC_PAGES,
  routes,
} from "@parlons/contract";

const xmlEscape = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] ?? c,
  );

/** One `<url>` per page and language, each naming its alternates in every language (and x-default: FR). */
export function sitemapXml(publicUrl: string, courseIds: readonly string[]): string {
  const pages = [...PUBLIC_PAGES, ...courseIds.map((id) => `/courses/${encodeURIComponent(id)}`)];
  const entries = pages.flatMap((page) => {
    const urls = LOCALES.map((lang) => publicUrl + localizePath(page, lang));
    const alternates = [
      ...LOCALES.map(
        (lang, i) => `<xhtml:link rel="alternate" hreflang="${lang}" href="${xmlEscape(urls[i] ?? "")}"/>`,
      ),
      `<xhtml:link rel="alternate" hreflang="x-default" href="${xmlEscape(publicUrl + localizePath(page, DEFAULT_LOCALE))}"/>`,
    ].join("");
    return urls.map((loc) => `<url><loc>${xmlEscape(loc)}</loc>${alternates}</url>`);
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    "</urlset>",
    "",
  ].join("\n");
}

/** `courses/:id/lessons` → `/courses/*\/lessons`; a trailing parameter is dropped. */
function robotsPattern(pattern: string): string {
  const segments = pattern.split("/");
  let trailingParameter = false;
  while (segments.length > 0 && segments[segments.length - 1]?.startsWith(":")) {
    segments.pop();
    trailingParameter = true;
  }
  // a rule is a prefix: `c/:code` must give `/c/`, since `/c` would also keep crawlers out of
  // /courses and /contact
  return `/${segments.map((s) => (s.startsWith(":") ? "*" : s)).join("/")}${trailingParameter ? "/" : ""}`;
}

/** Keeps crawlers out of the API and of the signed-in, staff and account pages, in every language. */
export function robotsTxt(publicUrl: string): string {
  const prefixes = [...new Set(PRIVATE_ROUTES.map((name) => robotsPattern(routes[name])))];
  const disallow = ["/api/", ...prefixes.flatMap((p) => LOCALES.map((lang) => `${langPrefix(lang)}${p}`))];
  return [
    "User-agent: *",
    ...disallow.map((p) => `Disallow: ${p}`),
    "Allow: /",
    "",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}
