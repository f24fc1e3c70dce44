import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import {
  DEFAULT_LOCALE,
  fromAcceptLanguage,
  isLocale,
  langPrefix,
  matchWebRoute,
  renderedPageUrl,
  SERVER_RENDERED_ROUTES,
  STAFF_PAGE_PERMISSIONS,
  type WebRouteMatch,
} from "@parlons/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { PAGE_COOKIE } from "../lib/page-cookie";
import { createPageRenderer } from "../web/page-renderer";
import { robotsTxt, sitemapXml } from "../web/seo-files";

const LANGUAGE_COOKIE = "i18n_redirected";

const IMMUTABLE = "public, max-age=31536000, immutable";

/** The encoding to send: brotli, else gzip, else none (a `;q=0` refuses one). */
function pickEncoding(accept: string | undefined): "br" | "gzip" | null {
  const accepted = (name: string) =>
    (accept ?? "").split(",").some((part) => {
      const [coding, ...params] = part.trim().toLowerCase().split(";");
      return coding === name && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p));
    });
  if (accepted("br")) return "br";
  if (accepted("gzip")) return "gzip";
  return null;
}

/**
 * Serves the built web app on the API's origin. Files are sent precompressed (the build writes
 * `.br` and `.gz` next to each; chosen by Accept-Encoding, with `Vary: Accept-Encoding`), hashed
 * assets cached for a year, HTML revalidated. A page path the web router knows gets index.html
 * (200), any other one the same app with 404, which shows the not-found page of its language;
 * so does a course, lessons, lesson or event page whose course, lesson or event does not exist. `/` is redirected (302) to the language
 * saved in the `i18n_redirected` cookie. The public pages (and not-found pages) arrive rendered
 * on the server (see web/page-renderer), compressed once per version of their data.
 */
export default fp(
  async (app: FastifyInstance, opts: { dist: string; publicUrl: string }) => {
    const indexFile = path.join(opts.dist, "index.html");
    const hasWeb = existsSync(indexFile);
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: opts.dist,
        wildcard: false,
        index: false,
        preCompressed: true,
        // one route per file, not per compressed copy: `preCompressed` finds x.br and x.gz next
        // to x on disk; routes for them too were 2/3 of the ~1,200 this registered at start-up
        globIgnore: ["**/*.br", "**/*.gz"],
        setHeaders(reply, file) {
          const hashed = file.includes(`${path.sep}assets${path.sep}`);
          reply.header("cache-control", hashed ? IMMUTABLE : "no-cache");
        },
      });
    } else {
      app.log.warn({ dist: opts.dist }, "web app not built: only the API is served");
    }

    const sendApp = (reply: FastifyReply, status: number) => {
      if (!hasWeb) {
        return reply
          .status(503)
          .type("text/plain; charset=utf-8")
          .send("The web app is not built: run npm run build.");
      }
      return reply.status(status).sendFile("index.html");
    };

    const renderer = createPageRenderer(app, opts);
    app.metrics.setSources({ pages: renderer });
    if (hasWeb && !renderer.available) {
      app.log.warn(
        { dist: opts.dist },
        "server renderer not built: public pages are rendered in the browser",
      );
    }

    /** The page as the server renders it, or the app shell when it is not built or fails. */
    const sendPage = async (request: FastifyRequest, reply: FastifyReply, match: WebRouteMatch | null) => {
      const status = !(await pageExists(match)) ? 404 : (await forbidden(request, match)) ? 403 : 200;
      const rendered = !match || SERVER_RENDERED_ROUTES.includes(match.name);
      if (!hasWeb || !renderer.available || !rendered) return sendApp(reply, status);
      let page: Awaited<ReturnType<typeof renderer.page>>;
      try {
        // rendered and kept by route, language and the query parameters the page reads, not by
        // the URL as sent: unique query strings and spellings of a path share one render
        page = await renderer.page(renderedPageUrl(request.url, match), match?.name ?? null, status);
      } catch (err) {
        request.log.error({ err, url: request.url }, "server render failed: sending the app shell");
        return sendApp(reply, status);
      }
      reply
        .header("content-type", "text/html; charset=utf-8")
        .header("cache-control", "no-cache")
        .header("vary", [reply.getHeader("vary"), "accept-encoding"].filter(Boolean).join(", "))
        .header("etag", page.etag);
      if (request.headers["if-none-match"] === page.etag) return reply.status(304).send();
      const encoding = pickEncoding(request.headers["accept-encoding"]);
      if (encoding) reply.header("content-encoding", encoding);
      return reply
        .status(status)
        .send(encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.identity);
    };

    /**
     * A staff page asked for by a signed-in reader without its permission (their session's page
     * cookie, modules/auth/page-cookie). Signed out, the page answers 200 and the app sends the
     * reader to the login page; with the permission, 200.
     */
    const forbidden = async (request: FastifyRequest, match: WebRouteMatch | null) => {
      const needed = match ? STAFF_PAGE_PERMISSIONS[match.name] : undefined;
      if (!needed) return false;
      const { pageCookie, principals } = app.deps.services;
      const sid = pageCookie.sessionOf(request.cookies[PAGE_COOKIE]);
      if (!sid) return false;
      const principal = await principals.ofSession(sid);
      return principal !== null && !principal.permissions.has(needed);
    };

    /** What an API read answers (a page's data, read as an anonymous visitor). */
    const read = (url: string) => app.inject({ method: "GET", url, headers: { accept: "application/json" } });
    const id = (value: string | undefined) => encodeURIComponent(value ?? "");

    /**
     * Whether the page exists: its route is known and the course, lesson or event it names is
     * public (a course, its lessons page or one of its lessons; an event). Anything other than a
     * 404 from the API (a 5xx) counts as existing: the page itself then shows what went wrong.
     */
    const pageExists = async (match: WebRouteMatch | null): Promise<boolean> => {
      if (!match) return false;
      const { params } = match;
      switch (match.name) {
        case "course":
        case "lessons":
          return (await read(`/api/v1/courses/single/${id(params.id)}`)).statusCode !== 404;
        case "lesson": {
          // the course by id or slug, then its lessons by the course's id (as the page reads them)
          const course = await read(`/api/v1/courses/single/${id(params.id)}`);
          if (course.statusCode >= 500) return true;
          if (course.statusCode !== 200) return false;
          const courseId = course.json<{ data: { course: { id: string } } }>().data.course.id;
          const res = await read(`/api/v1/courses/${id(courseId)}/lessons`);
          if (res.statusCode !== 200) return res.statusCode >= 500 || res.statusCode === 401;
          const { lessons } = res.json<{ data: { lessons: { id: string }[] } }>().data;
          return lessons.some((lesson) => lesson.id === params.lessonId);
        }
        case "legal":
          return (await read(`/api/v1/legal/${id(params.page)}`)).statusCode === 200;
        case "certificateVerify":
          return (await read(`/api/v1/certificates/verify/${id(params.code)}`)).statusCode !== 404;
        case "event": {
          // an id that is no event id at all (`/events/123`, answered 400) names no event either
          const { statusCode } = await read(`/api/v1/events/${id(params.id)}`);
          return statusCode < 400 || statusCode >= 500;
        }
        default:
          return true;
      }
    };

    app.get("/", { schema: { hide: true } }, async (request, reply) => {
      // the language chosen before (cookie), else the browser's on a first visit
      const saved = request.cookies[LANGUAGE_COOKIE];
      const lang = isLocale(saved)
        ? saved
        : (fromAcceptLanguage(request.headers["accept-language"]) ?? DEFAULT_LOCALE);
      reply.header("vary", "Accept-Language, Cookie");
      if (lang !== DEFAULT_LOCALE) return reply.redirect(langPrefix(lang), 302);
      return sendPage(request, reply, matchWebRoute("/"));
    });

    app.get("/robots.txt", { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header("cache-control", "public, max-age=3600")
        .type("text/plain; charset=utf-8")
        .send(robotsTxt(opts.publicUrl)),
    );

    app.get("/sitemap.xml", { schema: { hide: true } }, async (_request, reply) => {
      const ids: string[] = [];
      for (let page = 1; ; page++) {
        const res = await app.inject({
          method: "GET",
          url: `/api/v1/courses/active?page=${page}&pageSize=100`,
        });
        if (res.statusCode !== 200) throw new Error(`active courses answered ${res.statusCode}`);
        const { courses, pagination } = res.json<{
          data: { courses: { id: string }[]; pagination: { total: number; pageSize: number } };
        }>().data;
        ids.push(...courses.map((c) => c.id));
        if (courses.length === 0 || page * pagination.pageSize >= pagination.total) break;
      }
      return reply
        .header("cache-control", "no-cache")
        .type("application/xml; charset=utf-8")
        .send(sitemapXml(opts.publicUrl, ids));
    });

    app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
      const pathname = request.url.split("?")[0] ?? "/";
      const isPage =
        (request.method === "GET" || request.method === "HEAD") &&
        !pathname.startsWith("/api/") &&
        pathname !== "/api";
      if (isPage) return sendPage(request, reply, matchWebRoute(pathname));
      return reply.status(404).send({
        statusCode: 404,
        code: "NOT_FOUND",
        message: `Route ${request.method} ${pathname} not found`,
      });
    });
  },
  { name: "web", dependencies: ["errors", "deps"] },
);
