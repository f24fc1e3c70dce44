import { createHmac, timingSafeEqual } from "node:crypto";
import { forbidden } from "../../lib/errors";

export interface SignedUrl {
  url: string;
  expiresAt: Date;
}

const ANONYMOUS = "anon";

/**
 * Short-lived audio URLs for `<audio src>` (which cannot send a Bearer header), bound to
 * the lesson and the user. The expiry is rounded to a window so a lesson fetched twice
 * gets the same URL (the browser cache keeps working): a URL lives between ttl and 2×ttl.
 * The signature covers the path and query only, so a CDN in front of this server (the
 * settings' audio source, `baseUrl`) forwards a URL that still verifies here.
 */
export function createMediaUrlSigner(opts: { secret: string; ttlSeconds: number }) {
  const key = createHmac("sha256", opts.secret).update("parlons:media-url:v1").digest();
  const mac = (lessonId: string, user: string, exp: number) =>
    createHmac("sha256", key).update(`${lessonId}.${user}.${exp}`).digest("base64url");

  return {
    /** `baseUrl`: "" for a URL relative to this server, or a CDN base URL without trailing slash. */
    sign(lessonId: string, userId: string | null, at: { baseUrl?: string; now?: number } = {}): SignedUrl {
      const now = at.now ?? Date.now();
      const ttl = opts.ttlSeconds;
      const exp = (Math.floor(now / 1000 / ttl) + 2) * ttl;
      const user = userId ?? ANONYMOUS;
      const query = new URLSearchParams({ u: user, exp: String(exp), sig: mac(lessonId, user, exp) });
      return {
        url: `${at.baseUrl ?? ""}/api/v1/media/audio/${lessonId}?${query.toString()}`,
        expiresAt: new Date(exp * 1000),
      };
    },

    /** The user the URL was made for (null: a visitor); throws 403 when expired or tampered with. */
    verify(lessonId: string, q: { u: string; exp: number; sig: string }, now = Date.now()): string | null {
      const expected = Buffer.from(mac(lessonId, q.u, q.exp));
      const given = Buffer.from(q.sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        throw forbidden("Invalid audio link");
      }
      if (q.exp * 1000 <= now) throw forbidden("Audio link expired: reload the lesson");
      return q.u === ANONYMOUS ? null : q.u;
    },
  };
}
export type MediaUrlSigner = ReturnType<typeof createMediaUrlSigner>;
