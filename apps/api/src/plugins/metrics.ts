import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { notFound, unauthenticated } from "../lib/errors";
import type { Metrics } from "../lib/metrics";
import { bearerToken } from "./auth";

declare module "fastify" {
  interface FastifyInstance {
    /** The app's Prometheus metrics (lib/metrics.ts). */
    metrics: Metrics;
  }
}

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * The request id back in `X-Request-Id`, each request's duration in the HTTP histogram (by route
 * pattern, never the raw URL), and `GET /metrics` for Prometheus behind a Bearer token
 * (METRICS_TOKEN; without it the route answers 404).
 */
export default fp(
  async (app: FastifyInstance, opts: { metrics: Metrics; token: string | undefined }) => {
    const { metrics, token } = opts;
    app.addHook("onRequest", async (request, reply) => {
      reply.header("x-request-id", request.id);
    });
    app.addHook("onResponse", async (request, reply) => {
      // unknown URLs share one label: a scan of random paths must not make a series each
      const route = request.routeOptions.url ?? "unmatched";
      metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    });

    const expected = token ? digest(token) : undefined;
    if (expected) metrics.collectProcessMetrics();
    app.get("/metrics", { schema: { hide: true }, logLevel: "warn" }, async (request, reply) => {
      if (!expected) throw notFound("Page");
      const sent = bearerToken(request.headers.authorization ?? "");
      if (!sent || !timingSafeEqual(digest(sent), expected)) {
        reply.header("www-authenticate", 'Bearer realm="metrics"');
        throw unauthenticated("The metrics need their Bearer token (METRICS_TOKEN)");
      }
      const { body, contentType } = await metrics.scrape();
      return reply.header("content-type", contentType).header("cache-control", "no-store").send(body);
    });
  },
  { name: "metrics" },
);
