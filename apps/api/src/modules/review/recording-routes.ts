import type { Multipart } from "@fastify/multipart";
import {
  idParams,
  MAX_RECORDING_BYTES,
  messageResponse,
  recordingListQuery,
  recordingListResponse,
  recordingResponse,
} from "@parlons/contract";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { sendStoredFile } from "../../lib/deliver";
import { AppError, badRequest, validationFailed } from "../../lib/errors";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { deckCaller } from "../../plugins/learner-day";
import { learnerLimits } from "../../plugins/learner-limits";
import { RECORDING_TOO_LARGE } from "./recordings";

const tags = ["review"];
const base = "/v1/recordings";
const binary = z.unknown().describe("The recording's bytes");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const tooLarge = () =>
  new AppError(
    413,
    "PAYLOAD_TOO_LARGE",
    RECORDING_TOO_LARGE,
    { file: [RECORDING_TOO_LARGE] },
    {
      connection: "close",
    },
  );

/** Reads the `cue_id` field and the `file` part (held in memory: a recording is 2 MB at most). */
async function readRecording(parts: AsyncIterableIterator<Multipart>) {
  let cueId: string | undefined;
  let file: Buffer | undefined;
  try {
    for await (const part of parts) {
      if (part.type === "field") {
        if (part.fieldname === "cue_id") cueId = String(part.value).trim();
        continue;
      }
      if (file || part.fieldname !== "file") {
        throw badRequest("Send one file, in the field named file", { file: ["One file, named file"] });
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size >= MAX_RECORDING_BYTES) throw tooLarge();
        chunks.push(chunk);
      }
      file = Buffer.concat(chunks);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge();
    throw badRequest("Malformed multipart body");
  }
  const errors: Record<string, string[]> = {};
  if (!cueId || !UUID.test(cueId)) errors.cue_id = ["The line's id (a UUID) is required"];
  if (!file) errors.file = ["A file is required"];
  if (!cueId || !file || Object.keys(errors).length > 0) throw validationFailed(errors);
  return { cueId, file };
}

/** Recordings of lesson lines that a learner kept on their account. Only their owner reads or deletes one. */
export default async function recordingRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { recordings } = app.deps.services;
  const { reviewerOf } = deckCaller(app);
  const signedIn = { access: access.signedIn };

  app.post(
    base,
    {
      config: { ...signedIn, rateLimit: learnerLimits.recording },
      schema: {
        tags,
        summary: "Keep a recording of a lesson line on the account (replaces the previous one of that line)",
        consumes: ["multipart/form-data"],
        description:
          "Multipart fields: `cue_id` (the line) then `file` (WebM, Ogg or MP4 audio as MediaRecorder makes it, under 2 MB).",
        response: { 201: recordingResponse, ...errorResponses(403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart())
        throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "Send multipart/form-data");
      const { cueId, file } = await readRecording(request.parts());
      const recording = await recordings.keep(await reviewerOf(request), cueId, file);
      return reply.code(201).send({ message: "Recording kept", data: { recording } });
    },
  );

  app.get(
    base,
    {
      config: signedIn,
      schema: {
        tags,
        summary: "The recordings the learner kept (of one lesson, or all)",
        querystring: recordingListQuery,
        response: { 200: recordingListResponse, ...errorResponses() },
      },
    },
    async (request) => ({
      data: { recordings: await recordings.list(principalOf(request).id, request.query.lesson_id) },
    }),
  );

  app.get(
    `${base}/:id/audio`,
    {
      config: signedIn,
      schema: {
        tags,
        summary: "The bytes of one of the learner's recordings",
        params: idParams,
        response: { 200: binary, 206: binary, 304: binary, ...errorResponses(404, 416) },
      },
    },
    async (request, reply) => {
      const { key, mime } = await recordings.get(principalOf(request).id, request.params.id);
      return sendStoredFile(request, reply, {
        storage: recordings.storage,
        key,
        mime,
        cacheControl: "private, no-cache",
      });
    },
  );

  app.delete(
    `${base}/:id`,
    {
      config: signedIn,
      schema: {
        tags,
        summary: "Delete one of the learner's recordings",
        params: idParams,
        response: { 200: messageResponse, ...errorResponses(404) },
      },
    },
    async (request) => {
      await recordings.remove(principalOf(request).id, request.params.id);
      return { message: "Recording deleted" };
    },
  );
}
