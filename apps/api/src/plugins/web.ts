import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import { matchWebRoute, SERVER_RENDERED_ROUTES, type WebRouteMatch } from "@parlons/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { createPageRenderer } from "../web/page-renderer";
import { robotsTxt, sitemapXml } from "../web/seo-files";

export const LANGUAGE_COOKIE = "i18n_redirected";

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
 * so does a course page whose course does not exist. `/` is redirected (302) to the language
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
    if (hasWeb && !renderer.available) {
      app.log.warn(
        { dist: opts.dist },
        "server renderer not built: public pages are rendered in the browser",
      );
    }

    /** The page as the server renders it, or the app shell when it is not built or fails. */
    const sendPage = async (request: FastifyRequest, reply: FastifyReply, match: WebRouteMatch | null) => {
      const status = (await pageExists(match)) ? 200 : 404;
      const rendered = !match || SERVER_RENDERED_ROUTES.includes(match.name);
      if (!hasWeb || !renderer.available || !rendered) return sendApp(reply, status);
      let page: Awaited<ReturnType<typeof renderer.page>>;
      try {
        page = await renderer.page(request.url, match?.name ?? null, status);
      } catch (err) {
        request.log.error({ err, url: request.url }, "server render failed: sending the app shell");
        return sendApp(reply, status);
      }
      reply
        .header("content-type", "text/html; charset=utf-8")
        .header("cache-control", "no-cache")
        .header("vary", "accept-encoding")
        .header("etag", page.etag);
      if (request.headers["if-none-match"] === page.etag) return reply.status(304).send();
      const encoding = pickEncoding(request.headers["accept-encoding"]);
      if (encoding) reply.header("content-encoding", encoding);
      return reply
        .status(status)
        .send(encoding === "br" ? page.br : encoding === "gzip" ? page.gzip : page.identity);
    };

    /** Whether the page exists: its route is known and, for a course page, the course is public. */
    const pageExists = async (match: WebRouteMatch | null): Promise<boolean> => {
      if (!match) return false;
      if (match.name !== "course") return true;
      const res = await app.inject({
        method: "GET",
        url: `/api/v1/courses/single/${encodeURIComponent(match.params.id ?? "")}`,
      });
      return res.statusCode !== 404;
    };

    app.get("/", { schema: { hide: true } }, async (request, reply) => {
      if (request.cookies[LANGUAGE_COOKIE] === "en") return reply.redirect("/en", 302);
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
  { name: "web", dependencies: ["errors"] },
);
