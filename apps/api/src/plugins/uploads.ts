import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import multipart, { type FastifyMultipartOptions, type Multipart } from "@fastify/multipart";
import {
  MAX_UPLOAD_BYTES,
  type MediaType,
  UPLOAD_TOO_LARGE_MESSAGE,
  type UploadResponse,
} from "@parlons/contract";
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from "fastify";
import { AppError, badRequest, validationFailed } from "../lib/errors";
import { PRIVATE_FILE_MODE } from "../lib/private-files";
import { SNIFF_BYTES, type SniffedType, sniff } from "../lib/sniff";
import { principalOf } from "./auth";

const multipartOptions: FastifyMultipartOptions = {
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

export interface ReceivedUpload {
  tempFile: string;
  size: number;
  sniffed: SniffedType;
  /** The `type` field as sent, if any. */
  declaredType: string | undefined;
}

// The client may still be sending: close the connection rather than read the rest.
const closing = { connection: "close" };
const tooLarge = () =>
  new AppError(
    413,
    "PAYLOAD_TOO_LARGE",
    UPLOAD_TOO_LARGE_MESSAGE,
    { file: [UPLOAD_TOO_LARGE_MESSAGE] },
    closing,
  );
const unsupported = () =>
  new AppError(
    415,
    "UNSUPPORTED_MEDIA_TYPE",
    "Unsupported file: send an MP3 (audio) or a PNG, JPEG or WebP image",
    undefined,
    closing,
  );

/** Streams one file part to a temp file, counting bytes and checking its first bytes as they pass. */
async function writeTemp(source: NodeJS.ReadableStream, tempDir: string) {
  const tempFile = path.join(tempDir, randomUUID());
  let size = 0;
  let head = Buffer.alloc(0);
  let sniffed: SniffedType | null = null;
  let decided = false;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      if (size >= MAX_UPLOAD_BYTES) return callback(tooLarge());
      if (decided) return callback(null, chunk);
      head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES)]).subarray(0, SNIFF_BYTES);
      if (head.length < SNIFF_BYTES) return callback(null, chunk);
      // enough bytes: decide once, before anything more is written
      decided = true;
      sniff(head).then(
        (found) => {
          sniffed = found;
          callback(found ? null : unsupported(), found ? chunk : undefined);
        },
        (err: unknown) => callback(err as Error),
      );
    },
    flush(callback) {
      if (decided) return callback(sniffed ? null : unsupported());
      // a file shorter than the sniffing window
      decided = true;
      sniff(head).then(
        (found) => {
          sniffed = found;
          callback(found ? null : unsupported());
        },
        (err: unknown) => callback(err as Error),
      );
    },
  });
  try {
    await pipeline(source, guard, createWriteStream(tempFile, { mode: PRIVATE_FILE_MODE }));
  } catch (err) {
    await rm(tempFile, { force: true });
    throw err;
  }
  return { tempFile, size, sniffed: sniffed as unknown as SniffedType };
}

/**
 * Reads a multipart request with one `file` part and an optional `type` field. The file
 * goes to a temp file as it arrives (never held in memory); 100 MB or more is refused
 * while streaming (413), so is content that is neither MP3 nor an image (415) and a
 * second file (400).
 */
async function receiveUpload(
  parts: AsyncIterableIterator<Multipart>,
  tempDir: string,
): Promise<ReceivedUpload> {
  let declaredType: string | undefined;
  let received: Omit<ReceivedUpload, "declaredType"> | undefined;
  try {
    for await (const part of parts) {
      if (part.type === "field") {
        if (part.fieldname === "type") declaredType = String(part.value);
        continue;
      }
      if (received) throw badRequest("Send one file per request", { file: ["One file at a time"] });
      if (part.fieldname !== "file") {
        throw badRequest("The file goes in the field named file", { [part.fieldname]: ["Unexpected file"] });
      }
      received = await writeTemp(part.file, tempDir);
    }
  } catch (err) {
    if (received) await rm(received.tempFile, { force: true });
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge();
    if (code === "FST_FILES_LIMIT")
      throw badRequest("Send one file per request", { file: ["One file at a time"] });
    if (code === "FST_INVALID_MULTIPART_CONTENT_TYPE")
      throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "Send multipart/form-data");
    throw badRequest("Malformed multipart body");
  }
  if (!received) throw validationFailed({ file: ["A file is required"] });
  return { ...received, declaredType };
}

/** The `type` field of the spec's client: a media type name or a MIME type; audio by default. */
export function declaredMediaType(value: string | undefined): MediaType {
  const v = (value ?? "").trim().toLowerCase();
  if (v === "" || v === "audio" || v === "mp3" || v.startsWith("audio/")) return "audio";
  if (v === "image" || v === "cover" || v.startsWith("image/")) return "image";
  throw validationFailed({ type: ["Use audio or image"] });
}

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

/** Registers routes that take uploads, in their own scope where multipart/form-data bodies are read. */
export async function registerWithUploads(api: FastifyInstance, ...routes: FastifyPluginAsync[]) {
  await api.register(async (scope) => {
    await scope.register(multipart, multipartOptions);
    for (const r of routes) await scope.register(r);
  });
}
