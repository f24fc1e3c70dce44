import { z } from "zod";
import { envelope } from "./common";
import { LOCALES } from "./locales";

/**
 * The learner's private podcast feed. Only a hash of its secret is stored, so its URL is shown
 * once, when it is made (`url`, on creation and rotation); afterwards the feed says only whether
 * it exists and since when.
 */
export const podcastFeed = z.object({
  active: z.boolean(),
  created_at: z.string().nullable(),
  rotated_at: z.string().nullable(),
  /** The feed's URL, with its secret: only in the answer that made it. */
  url: z.string().nullable(),
});
export type PodcastFeed = z.infer<typeof podcastFeed>;
export const podcastFeedResponse = envelope(z.object({ feed: podcastFeed }));
export type PodcastFeedResponse = z.infer<typeof podcastFeedResponse>;

/** The secret of a feed's URL: 32 random bytes, base64url. */
export const podcastTokenParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });
/** An episode's file (audio, transcript, chapters) in one feed. */
export const podcastItemParams = z.object({ feedId: z.uuid(), lessonId: z.uuid() });
/** The signature of an episode's file URL: binds the feed, its current secret and the lesson. */
export const podcastItemQuery = z.object({ sig: z.string().max(128) });
/** The daily session of a feed: its day (UTC) and the language of its prompts. */
export const podcastSessionParams = z.object({ feedId: z.uuid(), day: z.iso.date() });
export const podcastSessionQuery = z.object({
  sig: z.string().max(128),
  lang: z.enum(LOCALES).default("fr"),
});
/** The language of a feed's titles and descriptions (French by default). */
export const podcastLangQuery = z.object({ lang: z.enum(LOCALES).default("fr") });
