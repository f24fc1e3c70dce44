import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The session a page request comes from, so that a staff page can answer 403 to a signed-in
 * reader without its permission. It names the session and nothing else: signed (HMAC of the
 * JWT secret), HttpOnly, and worth nothing to the API, which reads only Bearer tokens; the refresh
 * cookie stays scoped to `/api/v1/auth`. Set and cleared with the refresh cookie.
 */
export const PAGE_COOKIE = "parlons.session";

export function createPageCookie(secret: string) {
  const mac = (sid: string) => createHmac("sha256", secret).update(`page-cookie:${sid}`).digest("base64url");
  return {
    value: (sessionId: string) => `${sessionId}.${mac(sessionId)}`,
    /** The session id of a cookie value this server signed, else null. */
    sessionOf(value: string | undefined): string | null {
      if (!value || value.length > 200) return null;
      const dot = value.lastIndexOf(".");
      if (dot <= 0) return null;
      const sid = value.slice(0, dot);
      const given = Buffer.from(value.slice(dot + 1));
      const expected = Buffer.from(mac(sid));
      return given.length === expected.length && timingSafeEqual(given, expected) ? sid : null;
    },
  };
}
