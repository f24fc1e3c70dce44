import { audioQuery, PERMISSIONS, uploadResponse } from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { isStorageKey } from "../../integrations/storage/storage";
import { sendStoredFile } from "../../lib/deliver";
import { notFound } from "../../lib/errors";
import { errorResponses } from "../../lib/route-schemas";
import { imageMimeOf } from "../../lib/sniff";
import { access } from "../../plugins/access";
import { uploadFromRequest } from "../../plugins/uploads";

/** Options of @fastify/multipart (registered once under /api). */
// with the statuses every route gets from its access rule and nature (plugins/operation-docs.ts)
const errors = errorResponses(403, 404, 416);
const binary = z.unknown().describe("The file's bytes");

export default async function mediaRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { media, mediaUrls } = app.deps.services;
  const { config } = app.deps;
  const audioCacheControl = `private, max-age=${Math.min(config.media.urlTtl, 3600)}`;
  const accelPrefix = media.storage.kind === "disk" ? config.media.accelPrefix : undefined;

  app.post(
    "/v1/medias/file/upload",
    {
      config: { access: access.permission(PERMISSIONS.mediaUpload) },
      schema: {
        tags: ["media"],
        consumes: ["multipart/form-data"],
        description:
          "Multipart fields: `file` (one file: MP3, or PNG/JPEG/WebP with type=image; under 100 MB) and `type` (audio by default).",
        response: { 200: uploadResponse, ...errors },
      },
    },
    async (request) => ({ message: "upload successfully.", data: await uploadFromRequest(app, request) }),
  );

  // GET and HEAD declared together: the HEAD that Fastify adds by itself would send Content-Length: 0
  app.route({
    method: ["GET", "HEAD"],
    url: "/v1/media/audio/:lessonId",
    // the signature of the URL is the credential (<audio> cannot send a Bearer header)
    config: { access: access.public },
    // a player sends a Range request every few seconds of listening: no access log line for
    // each (errors are still logged)
    logLevel: "warn",
    schema: {
      tags: ["media"],
      description:
        "Audio of a lesson through the signed URL found in the lesson (`audio.url`). Supports Range, If-Range, If-None-Match and If-Modified-Since.",
      params: z.object({ lessonId: z.uuid() }),
      querystring: audioQuery,
      response: { 200: binary, 206: binary, 304: binary, ...errors },
    },
    handler: async (request, reply) => {
      // the URL is the authorisation: signed when the lesson list found the lesson open to this
      // user, for this file, until exp (see signing.ts); nothing else is looked up per request
      const { key } = mediaUrls.verify(request.params.lessonId, request.query);
      if (!isStorageKey(key)) throw notFound("Audio");
      if (accelPrefix) {
        // nginx serves the bytes (ranges, validators) from its internal location
        return reply
          .header("x-accel-redirect", `${accelPrefix}${key}`)
          .header("content-type", "audio/mpeg")
          .header("cache-control", audioCacheControl)
          .send();
      }
      return sendStoredFile(request, reply, {
        storage: media.storage,
        key,
        mime: "audio/mpeg",
        cacheControl: audioCacheControl,
      });
    },
  });

  app.route({
    method: ["GET", "HEAD"], // as above
    url: "/v1/media/images/:name",
    config: { access: access.public },
    schema: {
      tags: ["media"],
      description: "Course covers (public). Names are random, so they are cached for a year.",
      params: z.object({ name: z.string().regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$/) }),
      response: { 200: binary, 206: binary, 304: binary, ...errors },
    },
    handler: async (request, reply) => {
      const mime = imageMimeOf(request.params.name);
      if (!mime) throw notFound("Image");
      return sendStoredFile(request, reply, {
        storage: media.storage,
        key: `images/${request.params.name}`,
        mime,
        cacheControl: "public, max-age=31536000, immutable",
        headers: { "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox" },
      });
    },
  });
}
