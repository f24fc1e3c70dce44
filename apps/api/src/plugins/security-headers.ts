import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * Security headers on every response. The web app loads only its own scripts; antd writes
 * its styles at run time (hence 'unsafe-inline' for styles only); audio and covers come from
 * this origin or from AUDIO_BASE_URL; the payment provider is reached by full-page navigation.
 */
export default fp(
  async (app: FastifyInstance, opts: { audioBaseUrl?: string }) => {
    const media = ["'self'", "blob:", ...(opts.audioBaseUrl ? [new URL(opts.audioBaseUrl).origin] : [])];
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", "data:", "blob:"],
          fontSrc: ["'self'", "data:"],
          mediaSrc: media,
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
