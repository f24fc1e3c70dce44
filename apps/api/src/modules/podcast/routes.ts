import { createHash } from "node:crypto";
import {
  podcastFeedResponse,
  podcastItemParams,
  podcastItemQuery,
  podcastLangQuery,
  podcastSessionParams,
  podcastSessionQuery,
  podcastTokenParams,
} from "@parlons/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { sendStoredFile } from "../../lib/deliver";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";

const tags = ["podcast"];
const binary = z.unknown().describe("The file's bytes");
const text = z.string();
// a learner's feed names no one else, and search engines have no business with it
const PRIVATE = {
  "cache-control": "private, no-cache",
  "x-robots-tag": "noindex",
  "referrer-policy": "no-referrer",
};

/** Sends a text with a strong ETag (304 when the app already has it). */
function sendText(request: FastifyRequest, reply: FastifyReply, type: string, body: string) {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  reply.headers({ ...PRIVATE, etag });
  if (request.headers["if-none-match"] === etag) return reply.code(304).send();
  return reply.type(type).send(body);
}

/**
 * The learner's private podcast feed: made, rotated and revoked by its owner (signed in); read
 * by a podcast app with the secret in its URL, and its episodes' files through URLs signed for
 * that feed (no cookie, no token: the URL is the credential, checked against the feed's current
 * secret and the owner's entitlement at every fetch).
 */
export default async function podcastRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { podcast, media } = app.deps.services;
  const signedIn = { access: access.signedIn };
  const byUrl = { access: access.public };
  const response = { 200: podcastFeedResponse, ...errorResponses() };

  app.get(
    "/v1/podcast/feed",
    {
      config: signedIn,
      schema: { tags, summary: "Whether the caller has a private podcast feed, and since when", response },
    },
    async (request) => ({ data: { feed: await podcast.status(principalOf(request).id) } }),
  );

  app.post(
    "/v1/podcast/feed",
    {
      config: signedIn,
      schema: {
        tags,
        summary:
          "Makes the caller's feed a new secret URL (creates it, or rotates it: the old URL and its episodes stop working); the URL is shown this once",
        querystring: podcastLangQuery,
        response,
      },
    },
    async (request) => ({
      data: { feed: await podcast.rotate(principalOf(request).id, request.query.lang) },
    }),
  );

  app.delete(
    "/v1/podcast/feed",
    {
      config: signedIn,
      schema: { tags, summary: "Revokes the caller's feed: its URL and its episodes answer 404", response },
    },
    async (request) => ({ data: { feed: await podcast.revoke(principalOf(request).id) } }),
  );

  app.get(
    "/v1/podcast/feed/:token",
    {
      config: byUrl,
      schema: {
        tags,
        summary:
          "The feed (RSS 2.0, iTunes and Podcasting 2.0 tags) of the lessons that open for its owner now, by the secret of its URL",
        params: podcastTokenParams,
        querystring: podcastLangQuery,
        response: { 200: text.describe("application/rss+xml"), 304: binary, ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      sendText(
        request,
        reply,
        "application/rss+xml; charset=utf-8",
        await podcast.feed(request.params.token, request.query.lang),
      ),
  );

  // GET and HEAD together: podcast apps ask HEAD for the length
  app.route({
    method: ["GET", "HEAD"],
    url: "/v1/podcast/items/:feedId/:lessonId/audio.mp3",
    config: byUrl,
    logLevel: "warn",
    schema: {
      tags,
      description:
        "An episode's audio through the URL signed in the feed; the owner's entitlement is checked at every request. Supports Range.",
      params: podcastItemParams,
      querystring: podcastItemQuery,
      response: { 200: binary, 206: binary, 304: binary, ...errorResponses(403, 404, 416) },
    },
    handler: async (request, reply) => {
      const { feedId, lessonId } = request.params;
      const key = await podcast.audio(feedId, lessonId, request.query.sig);
      reply.headers({ "x-robots-tag": "noindex", "referrer-policy": "no-referrer" });
      return sendStoredFile(request, reply, {
        storage: media.storage,
        key,
        mime: "audio/mpeg",
        cacheControl: "private, no-cache",
      });
    },
  });

  app.route({
    method: ["GET", "HEAD"],
    url: "/v1/podcast/sessions/:feedId/:day/audio.mp3",
    config: byUrl,
    logLevel: "warn",
    schema: {
      tags,
      description:
        "The day's hands-free session (one MP3, see GET /v1/practice/hands-free/audio.mp3) through the URL signed in the feed: today's only, the day's file as long as every lesson it is cut from still opens for the owner as they are now (a plan that ends makes it again without its premium lines). The feed lists it once made (rendered in the background, never while the feed waits). Supports Range.",
      params: podcastSessionParams,
      querystring: podcastSessionQuery,
      response: { 200: binary, 206: binary, 304: binary, ...errorResponses(404, 416) },
    },
    handler: async (request, reply) => {
      const { feedId, day } = request.params;
      const session = await podcast.session(feedId, day, request.query.sig, request.query.lang);
      reply.headers({ "x-robots-tag": "noindex", "referrer-policy": "no-referrer" });
      return sendStoredFile(request, reply, {
        storage: media.storage,
        key: session.key,
        mime: "audio/mpeg",
        cacheControl: "private, no-cache",
      });
    },
  });

  app.get(
    "/v1/podcast/items/:feedId/:lessonId/transcript.vtt",
    {
      config: byUrl,
      schema: {
        tags,
        summary: "An episode's lines as WebVTT (podcast:transcript), through the URL signed in the feed",
        params: podcastItemParams,
        querystring: podcastItemQuery,
        response: { 200: text.describe("text/vtt"), 304: binary, ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      const { feedId, lessonId } = request.params;
      return sendText(
        request,
        reply,
        "text/vtt; charset=utf-8",
        await podcast.transcript(feedId, lessonId, request.query.sig),
      );
    },
  );

  app.get(
    "/v1/podcast/items/:feedId/:lessonId/chapters.json",
    {
      config: byUrl,
      schema: {
        tags,
        summary: "An episode's chapters, one per line (podcast:chapters, JSON chapters 1.2.0)",
        params: podcastItemParams,
        querystring: podcastItemQuery.extend(podcastLangQuery.shape),
        response: {
          200: text.describe("application/json+chapters"),
          304: binary,
          ...errorResponses(403, 404),
        },
      },
    },
    async (request, reply) => {
      const { feedId, lessonId } = request.params;
      const chapters = await podcast.chapters(feedId, lessonId, request.query.sig, request.query.lang);
      return sendText(request, reply, "application/json+chapters; charset=utf-8", JSON.stringify(chapters));
    },
  );
}
