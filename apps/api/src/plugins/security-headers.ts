import type { IncomingMessage } from "node:http";
import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * Security headers on every response. The web app loads only its own scripts; antd writes
 * its styles at run time (hence 'unsafe-inline' for styles only); audio and covers come from
 * this origin or from the CDN of the settings' audio source; the payment provider is reached
 * by full-page navigation.
 *
 * The CDN can change while the server runs (POST /v1/settings), so `media-src` is computed per
 * request: an onRequest hook reads the audio base URL (cached by the settings service) before
 * helmet's own hook writes the header through a function directive.
 */
export default fp(
  async (app: FastifyInstance, opts: { audioBaseUrl: () => Promise<string> }) => {
    const cdnOrigin = new WeakMap<IncomingMessage, string>();
    let lastKnown = "";

    app.addHook("onRequest", async (request) => {
      try {
        const base = await opts.audioBaseUrl();
        lastKnown = base ? new URL(base).origin : "";
      } catch (err) {
        // a database hiccup must not turn every response into a 500: keep the last origin known
        request.log.warn({ err }, "settings unavailable for the CSP; using the last audio origin known");
      }
      if (lastKnown) cdnOrigin.set(request.raw, lastKnown);
    });

    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", "data:", "blob:"],
          fontSrc: ["'self'", "data:"],
          mediaSrc: [(req) => ["'self'", "blob:", cdnOrigin.get(req) ?? ""].join(" ").trim()],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      // the cross-origin isolation headers would block PayPal's approval pop-ups and CDN audio
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: { policy: "same-site" },
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    });
  },
  { name: "security-headers" },
);
