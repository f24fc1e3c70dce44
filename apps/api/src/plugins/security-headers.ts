import type { Setting } from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { BOOT_SCRIPT_SOURCE } from "../web/boot-script";

export type HeaderList = readonly (readonly [string, string])[];

/**
 * Security headers on every response. The web app loads only its own scripts (and the
 * public pages' boot script, allowed by its hash); antd writes
 * its styles at run time (hence 'unsafe-inline' for styles only); audio and covers come from
 * this origin or from the CDN of the settings' audio source; the payment provider is reached
 * by full-page navigation; the cross-origin isolation headers would block PayPal's approval
 * pop-ups and CDN audio.
 *
 * These are the headers helmet wrote for this policy, computed once per audio origin instead
 * of once per request: the CDN can change while the server runs (POST /v1/settings), and the
 * settings service keeps the row in memory, so the hook is a lookup.
 */
function securityHeaders(cdnOrigin: string): HeaderList {
  const csp = [
    "default-src 'self'",
    // the server-rendered pages' one inline script (web/boot-script), by its hash
    `script-src 'self' ${BOOT_SCRIPT_SOURCE}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `media-src ${["'self'", "blob:", cdnOrigin].join(" ").trim()}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join(";");
  return [
    ["Content-Security-Policy", csp],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["Cross-Origin-Resource-Policy", "same-site"],
    ["Origin-Agent-Cluster", "?1"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"],
    ["X-Content-Type-Options", "nosniff"],
    ["X-DNS-Prefetch-Control", "off"],
    ["X-Download-Options", "noopen"],
    ["X-Frame-Options", "SAMEORIGIN"],
    ["X-Permitted-Cross-Domain-Policies", "none"],
    ["X-XSS-Protection", "0"],
  ];
}

/** The headers without a CDN origin: for answers given before the settings are read (the router's errors). */
export const BASE_SECURITY_HEADERS = securityHeaders("");

function cdnOriginOf(setting: Setting): string {
  const { audio_source } = setting;
  if (audio_source.type !== "cdn" || !audio_source.base_url) return "";
  try {
    return new URL(audio_source.base_url).origin;
  } catch {
    return "";
  }
}

declare module "fastify" {
  interface FastifyInstance {
    /** The security headers for the settings in memory now; undefined until they are read. */
    currentSecurityHeaders(): HeaderList | undefined;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    const { settings } = app.deps.services;
    let lastKnown: { setting: Setting; headers: HeaderList } | null = null;

    const current = (): HeaderList | undefined => {
      const setting = settings.peek();
      if (!setting) return undefined;
      if (lastKnown?.setting !== setting)
        lastKnown = { setting, headers: securityHeaders(cdnOriginOf(setting)) };
      return lastKnown.headers;
    };
    app.decorate("currentSecurityHeaders", current);

    app.addHook("onRequest", (request, reply, done) => {
      const headers = current();
      if (headers) {
        for (const [name, value] of headers) reply.raw.setHeader(name, value);
        done();
        return;
      }
      settings
        .get()
        .catch((err: unknown) => {
          // a database hiccup must not turn every response into a 500: keep the last origin known
          request.log.warn({ err }, "settings unavailable for the CSP; using the last audio origin known");
        })
        .then(() => {
          for (const [name, value] of current() ?? lastKnown?.headers ?? BASE_SECURITY_HEADERS) {
            reply.raw.setHeader(name, value);
          }
          done();
        });
    });
  },
  { name: "security-headers", dependencies: ["deps"] },
);
