import { localizePath, PRIVATE_ROUTES, PUBLIC_PAGES, routes } from "@parlons/contract";

const xmlEscape = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] ?? c,
  );

/** One `<url>` per page and language, each naming its FR/EN alternates (and x-default: FR). */
export function sitemapXml(publicUrl: string, courseIds: readonly string[]): string {
  const pages = [...PUBLIC_PAGES, ...courseIds.map((id) => `/courses/${encodeURIComponent(id)}`)];
  const entries = pages.flatMap((page) => {
    const fr = publicUrl + localizePath(page, "fr");
    const en = publicUrl + localizePath(page, "en");
    const alternates = [
      `<xhtml:link rel="alternate" hreflang="fr" href="${xmlEscape(fr)}"/>`,
      `<xhtml:link rel="alternate" hreflang="en" href="${xmlEscape(en)}"/>`,
      `<xhtml:link rel="alternate" hreflang="x-default" href="${xmlEscape(fr)}"/>`,
    ].join("");
    return [fr, en].map((loc) => `<url><loc>${xmlEscape(loc)}</loc>${alternates}</url>`);
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
  while (segments.length > 0 && segments[segments.length - 1]?.startsWith(":")) segments.pop();
  return `/${segments.map((s) => (s.startsWith(":") ? "*" : s)).join("/")}`;
}

/** Keeps crawlers out of the API and of the signed-in, staff and account pages, in both languages. */
export function robotsTxt(publicUrl: string): string {
  const prefixes = [...new Set(PRIVATE_ROUTES.map((name) => robotsPattern(routes[name])))];
  const disallow = ["/api/", ...prefixes.flatMap((p) => [p, `/en${p}`])];
  return [
    "User-agent: *",
    ...disallow.map((p) => `Disallow: ${p}`),
    "Allow: /",
    "",
    `Sitemap: ${publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
}
