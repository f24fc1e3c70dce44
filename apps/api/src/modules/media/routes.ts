import type { FastifyMultipartOptions } from "@fastify/multipart";
import {
  audioQuery,
  MAX_UPLOAD_BYTES,
  PERMISSIONS,
  type UploadResponse,
  uploadResponse,
} from "@parlons/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError, forbidden, notFound } from "../../lib/errors";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { canSeeLesson, isLessonStaff } from "../lessons/policy";
import { sendStoredFile } from "./deliver";
import { imageMimeOf } from "./sniff";
import { receiveUpload } from "./upload";

/** Options of @fastify/multipart (registered once under /api). */
export const multipartOptions: FastifyMultipartOptions = {
  limits: {
    // our own counter refuses the file at the limit while streaming; this is the backstop
    fileSize: MAX_UPLOAD_BYTES + 1024 * 1024,
    files: 2,
    fields: 10,
    fieldSize: 1024,
    parts: 20,
    headerPairs: 100,
  },
};

/** Receives and keeps the one file of a multipart upload request. */
export async function uploadFromRequest(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<UploadResponse["data"]> {
  if (!request.isMultipart()) throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "Send multipart/form-data");
  const { media } = app.deps.services;
  const upload = await receiveUpload(request.parts(), await media.storage.tempDir());
  return media.keep(principalOf(request).id, upload);
}

const errors = errorResponses(400, 401, 403, 404, 413, 415, 416, 422);
const binary = z.unknown().describe("The file's bytes");

export default async function mediaRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { media, lessons, users, entitlement, mediaUrls } = app.deps.services;
  const { config } = app.deps;

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

  app.get(
    "/v1/media/audio/:lessonId",
    {
      // the signature of the URL is the credential (<audio> cannot send a Bearer header)
      config: { access: access.public },
      schema: {
        tags: ["media"],
        description:
          "Audio of a lesson through the signed URL found in the lesson (`audio.url`). Supports Range, If-Range, If-None-Match and If-Modified-Since.",
        params: z.object({ lessonId: z.uuid() }),
        querystring: audioQuery,
        response: { 200: binary, 206: binary, 304: binary, ...errors },
      },
    },
    async (request, reply) => {
      const { lessonId } = request.params;
      const userId = mediaUrls.verify(lessonId, request.query);
      const lesson = await lessons.findForAudio(lessonId);
      if (!lesson?.audioPath) throw notFound("Audio");
      // The URL was signed for a lesson that was open to this user then: check again now
      // (lesson made paid, plan ended, account disabled…), unless it is plainly open to all.
      if (!(lesson.free && lesson.active && lesson.courseActive)) {
        const principal = userId ? await users.loadPrincipal(userId) : null;
        if (userId && principal?.status !== "ACTIVE") throw forbidden("Account not active");
        if (!canSeeLesson({ staff: isLessonStaff(principal) }, lesson, { active: lesson.courseActive })) {
          throw forbidden("This lesson is not available");
        }
        if (!entitlement.canOpen(await entitlement.accessOf(principal), lesson)) {
          throw forbidden("This lesson needs a premium plan");
        }
      }
      return sendStoredFile(request, reply, {
        storage: media.storage,
        key: lesson.audioPath,
        mime: "audio/mpeg",
        cacheControl: `private, max-age=${Math.min(config.media.urlTtl, 3600)}`,
      });
    },
  );

  app.get(
    "/v1/media/images/:name",
    {
      config: { access: access.public },
      schema: {
        tags: ["media"],
        description: "Course covers (public). Names are random, so they are cached for a year.",
        params: z.object({ name: z.string().regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$/) }),
        response: { 200: binary, 206: binary, 304: binary, ...errors },
      },
    },
    async (request, reply) => {
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
  );
}
