import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

export const LANGUAGE_COOKIE = "i18n_redirected";

/**
 * Serves the built web app on the API's origin: hashed assets cached for a year,
 * index.html for every other page (the SPA routes), and `/` redirected (302) to the
 * language saved in the `i18n_redirected` cookie.
 */
export default fp(
  async (app: FastifyInstance, opts: { dist: string }) => {
    const indexFile = path.join(opts.dist, "index.html");
    const hasWeb = existsSync(indexFile);
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: opts.dist,
        wildcard: false,
        index: false,
        setHeaders(res, file) {
          const cache = file.includes(`${path.sep}assets${path.sep}`)
            ? "public, max-age=31536000, immutable"
            : "no-cache";
          res.header("cache-control", cache);
        },
      });
    } else {
      app.log.warn({ dist: opts.dist }, "web app not built: only the API is served");
    }

    const sendApp = (reply: FastifyReply) => {
      if (!hasWeb) {
        return reply
          .status(503)
          .type("text/plain; charset=utf-8")
          .send("The web app is not built: run npm run build.");
      }
      return reply.header("cache-control", "no-cache").sendFile("index.html");
    };

    app.get("/", { schema: { hide: true } }, async (request, reply) => {
      if (request.cookies[LANGUAGE_COOKIE] === "en") return reply.redirect("/en", 302);
      return sendApp(reply);
    });

    app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
      const pathname = request.url.split("?")[0] ?? "/";
      const isPage =
        (request.method === "GET" || request.method === "HEAD") &&
        !pathname.startsWith("/api/") &&
        pathname !== "/api";
      if (isPage) return sendApp(reply);
      return reply.status(404).send({
        statusCode: 404,
        code: "NOT_FOUND",
        message: `Route ${request.method} ${pathname} not found`,
      });
    });
  },
  { name: "web", dependencies: ["errors"] },
);
