import { createHmac, timingSafeEqual } from "node:crypto";
import { forbidden } from "../../lib/errors";

export interface SignedUrl {
  url: string;
  expiresAt: Date;
}

/** What a verified audio URL grants: this user (null: a visitor) may read this stored file. */
export interface AudioGrant {
  userId: string | null;
  key: string;
}

const ANONYMOUS = "anon";

/**
 * Short-lived audio URLs for `<audio src>` (which cannot send a Bearer header). The signature
 * binds the lesson, the user, the expiry and the storage key of the file, so the audio route
 * decides from the URL alone, with no database query per Range request: the entitlement was
 * checked when the URL was signed (the lesson list), and a URL lives at most 2×ttl. A lesson whose
 * audio is replaced gets a new key (uploads have random names), so an old URL never serves the
 * new file, and the old file is gone once released.
 *
 * The expiry is rounded to a window so a lesson fetched twice gets the same URL (the browser
 * cache keeps working): a URL lives between ttl and 2×ttl. The signature covers the path and
 * query only, so a CDN in front of this server (the settings' audio source, `baseUrl`) forwards
 * a URL that still verifies here.
 */
export function createMediaUrlSigner(opts: { secret: string; ttlSeconds: number }) {
  const key = createHmac("sha256", opts.secret).update("parlons:media-url:v2").digest();
  const mac = (lessonId: string, user: string, exp: number, storageKey: string) =>
    createHmac("sha256", key).update(`${lessonId}\n${user}\n${exp}\n${storageKey}`).digest("base64url");

  return {
    /** `baseUrl`: "" for a URL relative to this server, or a CDN base URL without trailing slash. */
    sign(
      lessonId: string,
      userId: string | null,
      storageKey: string,
      at: { baseUrl?: string; now?: number } = {},
    ): SignedUrl {
      const now = at.now ?? Date.now();
      const ttl = opts.ttlSeconds;
      const exp = (Math.floor(now / 1000 / ttl) + 2) * ttl;
      const user = userId ?? ANONYMOUS;
      const query = new URLSearchParams({
        u: user,
        exp: String(exp),
        k: storageKey,
        sig: mac(lessonId, user, exp, storageKey),
      });
      return {
        url: `${at.baseUrl ?? ""}/api/v1/media/audio/${lessonId}?${query.toString()}`,
        expiresAt: new Date(exp * 1000),
      };
    },

    /** The user and file the URL was made for; throws 403 when expired or tampered with. */
    verify(
      lessonId: string,
      q: { u: string; exp: number; k: string; sig: string },
      now = Date.now(),
    ): AudioGrant {
      const expected = Buffer.from(mac(lessonId, q.u, q.exp, q.k));
      const given = Buffer.from(q.sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        throw forbidden("Invalid audio link");
      }
      if (q.exp * 1000 <= now) throw forbidden("Audio link expired: reload the lesson");
      return { userId: q.u === ANONYMOUS ? null : q.u, key: q.k };
    },
  };
}
export type MediaUrlSigner = ReturnType<typeof createMediaUrlSigner>;
