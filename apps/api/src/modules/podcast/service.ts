import { createHmac, timingSafeEqual } from "node:crypto";
import {
  cuesToWebVtt,
  type HandsFreeQuery,
  type Locale,
  localizePath,
  type PodcastFeed,
  pickField,
  pickText,
} from "@parlons/contract";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { podcastFeeds } from "../../db/schema/podcast";
import { dayStartOf } from "../../lib/day-start";
import { AppError, notFound } from "../../lib/errors";
import { textsOf } from "../../lib/naming";
import type { Principal } from "../../lib/principal";
import { hashToken, randomToken } from "../../lib/secret-tokens";
import { wordsOf } from "../../locales";
import type { CourseRow } from "../courses/service";
import type { EntitlementService } from "../entitlement/service";
import { isLessonStaff } from "../lessons/policy";
import type { LessonRow, LessonService } from "../lessons/service";
import type { MediaService } from "../media/service";
import type { HandsFreeAudio, SessionAudio } from "../practice/hands-free-audio";
import type { Reviewer } from "../review/service";
import { chaptersJson, type FeedEpisode, feedXml } from "./feed-xml";

type FeedRow = typeof podcastFeeds.$inferSelect;
/** The files of an episode, each behind its own signed URL. */
export type EpisodeFile = "audio" | "transcript" | "chapters";
const FILE_NAMES: Record<EpisodeFile, string> = {
  audio: "audio.mp3",
  transcript: "transcript.vtt",
  chapters: "chapters.json",
};
/** How many courses in progress a feed lists, most recent first. */
const FEED_COURSES = 20;

/**
 * Each learner's private podcast feed (RSS with Apple's and Podcasting 2.0's tags): the lessons
 * that open for them in the courses they have started. The feed's URL holds a secret (only its
 * hash is kept); the episodes' files are served from URLs signed for this feed, its current
 * secret and the lesson, so a podcast app needs no cookie, an episode URL grants that episode of
 * that feed only, and rotating or revoking the secret ends every URL at once. Every fetch of the
 * feed and of a file asks the entitlement rule again (`mayOpen`, through the lesson list and
 * `review.mustOpen`) for the feed's owner, as they are now.
 */
export function createPodcastService(deps: {
  db: Db;
  publicUrl: string;
  secret: string;
  users: { loadPrincipal(userId: string): Promise<Principal | null> };
  entitlement: Pick<EntitlementService, "accessOf">;
  lessons: LessonService;
  courses: { findByIds(ids: string[]): Promise<CourseRow[]> };
  media: Pick<MediaService, "findByPath">;
  review: { mustOpen(reviewer: Reviewer, lessonId: string): Promise<void> };
  handsFreeAudio: Pick<HandsFreeAudio, "audio" | "ready">;
  clock?: () => Date;
}) {
  const { db, publicUrl, users, entitlement, lessons, courses, media, review } = deps;
  const clock = deps.clock ?? (() => new Date());
  const key = createHmac("sha256", deps.secret).update("parlons:podcast-file:v1").digest();
  const mac = (file: EpisodeFile, feed: FeedRow, lessonId: string) =>
    createHmac("sha256", key)
      .update(`${file}\n${feed.id}\n${feed.tokenHash}\n${lessonId}`)
      .digest("base64url");

  const sessionMac = (feed: FeedRow, day: string, lang: Locale) =>
    createHmac("sha256", key)
      .update(`session\n${feed.id}\n${feed.tokenHash}\n${day}\n${lang}`)
      .digest("base64url");
  const sessionUrl = (feed: FeedRow, day: string, lang: Locale) =>
    `${publicUrl}/api/v1/podcast/sessions/${feed.id}/${day}/audio.mp3?sig=${sessionMac(feed, day, lang)}${lang === "fr" ? "" : `&lang=${lang}`}`;
  const sessionQuery = (lang: Locale): HandsFreeQuery => ({ limit: 20, lang, kinds: ["echo", "recall"] });
  /** The day's session MP3 of the feed's owner (both kinds, prompts in the feed's language), or null when nothing is due. */
  async function sessionOf(reader: Reviewer, lang: Locale): Promise<SessionAudio | null> {
    const dayStart = dayStartOf(undefined, clock());
    try {
      return await deps.handsFreeAudio.audio(reader, sessionQuery(lang), dayStart);
    } catch (err) {
      if (err instanceof AppError && err.code === "SESSION_EMPTY") return null;
      throw err;
    }
  }

  const fileUrl = (file: EpisodeFile, feed: FeedRow, lessonId: string) =>
    `${publicUrl}/api/v1/podcast/items/${feed.id}/${lessonId}/${FILE_NAMES[file]}?sig=${mac(file, feed, lessonId)}`;

  const present = (row: FeedRow | undefined, url: string | null = null): PodcastFeed => ({
    active: Boolean(row),
    created_at: row?.createdAt.toISOString() ?? null,
    rotated_at: row?.rotatedAt.toISOString() ?? null,
    url,
  });

  async function ownRow(userId: string) {
    const [row] = await db.select().from(podcastFeeds).where(eq(podcastFeeds.userId, userId));
    return row;
  }

  /** The feed's owner as they are now (an account no longer active has no feed), and what they open. */
  async function ownerOf(feed: FeedRow): Promise<Reviewer> {
    const principal = await users.loadPrincipal(feed.userId);
    if (principal?.status !== "ACTIVE") throw notFound("Feed");
    return { principal, access: await entitlement.accessOf(principal, clock()) };
  }

  /** The feed and lesson of a signed file URL; a wrong signature (another feed, an old secret) is not found. */
  async function signedFile(file: EpisodeFile, feedId: string, lessonId: string, sig: string) {
    const [feed] = await db.select().from(podcastFeeds).where(eq(podcastFeeds.id, feedId));
    if (!feed) throw notFound("Feed");
    const expected = Buffer.from(mac(file, feed, lessonId));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw notFound("Feed");
    const reader = await ownerOf(feed);
    await review.mustOpen(reader, lessonId);
    const [lesson] = await lessons.findByIds([lessonId]);
    if (!lesson) throw notFound("Lesson");
    return lesson;
  }

  async function episodes(feed: FeedRow, reader: Reviewer, lang: Locale): Promise<FeedEpisode[]> {
    const { principal, access } = reader;
    const viewer = { userId: principal.id, staff: isLessonStaff(principal), access };
    const ids = await lessons.coursesInProgress(principal.id, FEED_COURSES);
    const byId = new Map((await courses.findByIds(ids)).map((c) => [c.id, c]));
    const result: FeedEpisode[] = [];
    let season = 0;
    for (const id of ids) {
      const course = byId.get(id);
      // inactive courses stay out, staff's feeds included
      if (!course?.active) continue;
      season += 1;
      // the lesson list decides what opens (`mayOpen`: visibility, plan, pace), as in the app
      const open = (await lessons.list(course.id, viewer, { activeOnly: true, pace: course })).filter(
        (l) => !l.locked,
      );
      const rows = new Map((await lessons.findByIds(open.map((l) => l.id))).map((r) => [r.id, r]));
      for (const [index, item] of open.entries()) {
        const row = rows.get(item.id) as LessonRow | undefined;
        if (!row?.audioPath) continue;
        const file = await media.findByPath(row.audioPath);
        if (!file) continue;
        const title = pickField(item, "title", lang);
        const courseTitle = pickText(
          textsOf(course.titleFr, course.titleEn, course.translations, "title"),
          lang,
        );
        result.push({
          guid: `parlons:lesson:${row.id}`,
          title: `${courseTitle} · ${title}`,
          description: pickField(item, "text", lang) || title,
          link: `${publicUrl}${localizePath(`/courses/${course.id}/lessons/${row.id}`, lang)}`,
          published: row.createdAt,
          audio: {
            url: fileUrl("audio", feed, row.id),
            length: file.size,
            type: "audio/mpeg",
            duration: row.audioDuration,
          },
          transcript: { url: fileUrl("transcript", feed, row.id), language: course.targetLanguage },
          chapters: { url: `${fileUrl("chapters", feed, row.id)}${lang === "fr" ? "" : `&lang=${lang}`}` },
          season,
          episode: index + 1,
        });
      }
    }
    return result;
  }

  /** The day's hands-free session as the feed's first episode (none when nothing is due). */
  async function dailySession(feed: FeedRow, reader: Reviewer, lang: Locale): Promise<FeedEpisode[]> {
    // the feed never waits for a render: the episode appears once the day's file is made
    const session = await deps.handsFreeAudio.ready(
      reader,
      sessionQuery(lang),
      dayStartOf(undefined, clock()),
    );
    if (!session) return [];
    const day = session.day.toISOString().slice(0, 10);
    const words = wordsOf(lang).words.podcast;
    const title = `${words.sessionTitle} · ${day}`;
    return [
      {
        // a new guid when the day's file is made again (a plan ended): apps fetch it again
        guid: `parlons:session:${day}:${session.key.slice(-40, -4)}`,
        title,
        description: words.sessionDescription,
        link: `${publicUrl}${localizePath("/practice/hands-free", lang)}`,
        published: session.day,
        audio: {
          url: sessionUrl(feed, day, lang),
          length: session.size,
          type: "audio/mpeg",
          duration: session.seconds,
        },
        season: 0,
        episode: 1,
      },
    ];
  }

  return {
    /** Whether the learner has a feed, and since when (its URL is not kept, only its hash). */
    async status(userId: string): Promise<PodcastFeed> {
      return present(await ownRow(userId));
    },

    /**
     * Makes the learner's feed a new secret (creating the feed, or rotating its secret: the old URL
     * and every episode URL made with it stop working) and returns its URL, shown this once.
     */
    async rotate(userId: string, lang: Locale): Promise<PodcastFeed> {
      const token = randomToken();
      const now = clock();
      const [row] = await db
        .insert(podcastFeeds)
        .values({ userId, tokenHash: hashToken(token), createdAt: now, rotatedAt: now })
        .onConflictDoUpdate({
          target: podcastFeeds.userId,
          set: { tokenHash: hashToken(token), rotatedAt: now },
        })
        .returning();
      const query = lang === "fr" ? "" : `?lang=${lang}`;
      return present(row, `${publicUrl}/api/v1/podcast/feed/${token}${query}`);
    },

    /** Ends the learner's feed: its URL and its episodes' URLs answer 404 from now on. */
    async revoke(userId: string): Promise<PodcastFeed> {
      await db.delete(podcastFeeds).where(eq(podcastFeeds.userId, userId));
      return present(undefined);
    },

    /** The feed's RSS for the secret of its URL; an unknown (rotated, revoked) secret is not found. */
    async feed(token: string, lang: Locale): Promise<string> {
      const [feed] = await db
        .select()
        .from(podcastFeeds)
        .where(eq(podcastFeeds.tokenHash, hashToken(token)));
      if (!feed) throw notFound("Feed");
      const reader = await ownerOf(feed);
      const words = wordsOf(lang).words.podcast;
      return feedXml({
        title: words.title,
        description: words.description,
        author: words.author,
        link: `${publicUrl}${localizePath("/", lang)}`,
        language: lang,
        image: `${publicUrl}/icons/icon-512.png`,
        built: clock(),
        episodes: [...(await dailySession(feed, reader, lang)), ...(await episodes(feed, reader, lang))],
      });
    },

    /** The stored audio of an episode (its storage key), after the entitlement check. */
    async audio(feedId: string, lessonId: string, sig: string): Promise<string> {
      const lesson = await signedFile("audio", feedId, lessonId, sig);
      if (!lesson.audioPath) throw notFound("Audio");
      return lesson.audioPath;
    },

    /**
     * The day's session MP3 through its signed URL (today's only), planned again for the feed's
     * owner as they are now: a plan that ended takes its premium lines out of it.
     */
    async session(feedId: string, day: string, sig: string, lang: Locale): Promise<SessionAudio> {
      const [feed] = await db.select().from(podcastFeeds).where(eq(podcastFeeds.id, feedId));
      if (!feed) throw notFound("Feed");
      const expected = Buffer.from(sessionMac(feed, day, lang));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw notFound("Feed");
      if (dayStartOf(undefined, clock()).toISOString().slice(0, 10) !== day) throw notFound("Session");
      const session = await sessionOf(await ownerOf(feed), lang);
      if (!session) throw notFound("Session");
      return session;
    },

    /** The lesson's lines as WebVTT (`podcast:transcript`). */
    async transcript(feedId: string, lessonId: string, sig: string): Promise<string> {
      await signedFile("transcript", feedId, lessonId, sig);
      return cuesToWebVtt(((await lessons.cuesOf([lessonId])).get(lessonId) ?? []).map(lessons.presentCue));
    },

    /** One chapter per line (`podcast:chapters`, JSON chapters 1.2.0). */
    async chapters(feedId: string, lessonId: string, sig: string, lang: Locale) {
      const lesson = await signedFile("chapters", feedId, lessonId, sig);
      const lines = (await lessons.cuesOf([lessonId])).get(lessonId) ?? [];
      return chaptersJson(
        pickText(textsOf(lesson.titleFr, lesson.titleEn, lesson.translations, "title"), lang),
        lines,
      );
    },
  };
}
export type PodcastService = ReturnType<typeof createPodcastService>;
