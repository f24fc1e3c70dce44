import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import { matchWebRoute, type WebRouteMatch } from "@parlons/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { robotsTxt, sitemapXml } from "../web/seo-files";

export const LANGUAGE_COOKIE = "i18n_redirected";

const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * Serves the built web app on the API's origin. Files are sent precompressed (the build writes
 * `.br` and `.gz` next to each; chosen by Accept-Encoding, with `Vary: Accept-Encoding`), hashed
 * assets cached for a year, HTML revalidated. A page path the web router knows gets index.html
 * (200), any other one the same app with 404, which shows the not-found page of its language;
 * so does a course page whose course does not exist. `/` is redirected (302) to the language
 * saved in the `i18n_redirected` cookie.
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
      return sendApp(reply, 200);
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
      if (isPage) return sendApp(reply, (await pageExists(matchWebRoute(pathname))) ? 200 : 404);
      return reply.status(404).send({
        statusCode: 404,
        code: "NOT_FOUND",
        message: `Route ${request.method} ${pathname} not found`,
      });
    });
  },
  { name: "web", dependencies: ["errors"] },
);
