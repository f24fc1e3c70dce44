import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import multipart from "@fastify/multipart";
import {
  ALIGN_LANGUAGES,
  type AlignLanguageCode,
  COURSE_IMPORT_LIMITS,
  type CourseImportItem,
  courseIdParams,
  courseImportResponse,
  type ErrorCode,
  MAX_UPLOAD_BYTES,
  PERMISSIONS,
} from "@parlons/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { AppError } from "../../lib/errors";
import { PRIVATE_FILE_MODE } from "../../lib/private-files";
import { errorResponses } from "../../lib/route-schemas";
import { access } from "../../plugins/access";
import { principalOf } from "../../plugins/auth";
import { importDrop } from "./course-import";
import { type DroppedFile, unzip, ZipRefused } from "./zip";

const tooMuch = () =>
  new AppError(
    413,
    "PAYLOAD_TOO_LARGE",
    "The drop is larger than one import may be: send it in parts",
    undefined,
    {
      connection: "close",
    },
  );

/** Streams the request's files to temp files: a file over the upload limit is kept as a failure, the whole drop over its budget is refused (413). */
async function receive(request: FastifyRequest, tempDir: string, budget: { left: number }) {
  const files: (DroppedFile & { tooLarge: boolean })[] = [];
  try {
    for await (const part of request.files()) {
      const name = path.basename(part.filename || "file").slice(0, 200);
      const tempFile = path.join(tempDir, crypto.randomUUID());
      const file = { name, tempFile, size: 0, tooLarge: false };
      files.push(file);
      const guard = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          file.size += chunk.length;
          budget.left -= chunk.length;
          if (budget.left < 0) return callback(tooMuch());
          // past the upload limit: read on, keep nothing more
          if (file.size >= MAX_UPLOAD_BYTES) file.tooLarge = true;
          callback(null, file.tooLarge ? undefined : chunk);
        },
      });
      await pipeline(part.file, guard, createWriteStream(tempFile, { mode: PRIVATE_FILE_MODE }));
    }
    return files;
  } catch (err) {
    await Promise.all(files.map((f) => rm(f.tempFile, { force: true })));
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === "FST_FILES_LIMIT")
      throw new AppError(413, "PAYLOAD_TOO_LARGE", `At most ${COURSE_IMPORT_LIMITS.files} files in one drop`);
    if (code === "FST_REQ_FILE_TOO_LARGE") throw tooMuch();
    if (code === "FST_INVALID_MULTIPART_CONTENT_TYPE")
      throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "Send multipart/form-data");
    throw new AppError(400, "BAD_REQUEST", "Malformed multipart body");
  }
}

/** `POST /courses/{courseId}/imports`: a drop of zips and files becomes the course's next lessons. */
export default async function importRoutes(fastify: FastifyInstance) {
  await fastify.register(multipart, {
    limits: {
      fileSize: MAX_UPLOAD_BYTES + 1024 * 1024,
      files: COURSE_IMPORT_LIMITS.files,
      fields: 0,
      parts: COURSE_IMPORT_LIMITS.files,
      headerPairs: 100,
    },
  });
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { courses, lessons, media, alignment, audit } = app.deps.services;

  app.post(
    "/v1/courses/:courseId/imports",
    {
      config: { access: access.permission(PERMISSIONS.lessonsManage) },
      schema: {
        tags: ["lessons"],
        summary: "A drop of audio files and scripts (or zips of them) becomes the course's next lessons",
        description:
          "Multipart `file` parts: MP3 files and scripts paired by name (`01-bonjour.mp3` with " +
          "`01-bonjour.txt`, `.vtt` or `.srt`), zips of them, and optionally `course.json` " +
          '(`{"lessons":[{"name":"01-bonjour","title_fr":"…","title_en":"…"}]}`) or `course.csv` ' +
          "(name, title_fr, title_en, free). Lessons are created in name order; audio is checked as a " +
          "single upload is; a plain-text script is aligned by a job (`status: aligning`, follow " +
          "`…/lessons/{id}/align`), VTT or SRT give the times (`ready`). Each item that failed names " +
          "the file and the reason, and nothing of it was kept: drop its files again to retry. A zip " +
          "whose entries leave the archive, are too many, or unpack to more than they declare or than " +
          `${COURSE_IMPORT_LIMITS.zipRatio} times their packed size is refused whole.`,
        params: courseIdParams,
        consumes: ["multipart/form-data"],
        response: { 200: courseImportResponse, ...errorResponses(404, 413, 415, 422) },
      },
    },
    async (request) => {
      const course = await courses.get(request.params.courseId);
      if (!request.isMultipart())
        throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "Send multipart/form-data");
      const tempDir = await media.storage.tempDir();
      const budget = { left: COURSE_IMPORT_LIMITS.totalBytes };
      const received = await receive(request, tempDir, budget);
      const items: CourseImportItem[] = [];
      const files: DroppedFile[] = [];
      const failed = (name: string, code: ErrorCode, message: string) =>
        items.push({
          name,
          audio: null,
          script: null,
          status: "failed",
          lesson_id: null,
          job_id: null,
          error: { file: name, code, message },
        });
      try {
        for (const file of received) {
          if (file.tooLarge)
            failed(file.name, "PAYLOAD_TOO_LARGE", `${file.name}: larger than an upload may be`);
          else if (file.name.toLowerCase().endsWith(".zip")) {
            try {
              files.push(...(await unzip(file.tempFile, tempDir, budget)));
            } catch (err) {
              if (!(err instanceof ZipRefused)) throw err;
              failed(file.name, "IMPORT_ARCHIVE_REFUSED", `${file.name}: refused, ${err.message}`);
            }
          } else files.push(file);
        }
        if (files.length === 0 && items.length === 0)
          throw new AppError(422, "IMPORT_NOTHING", "The drop holds no file", {
            file: ["Add audio files and scripts"],
          });
        const lang: AlignLanguageCode = (ALIGN_LANGUAGES as readonly string[]).includes(course.targetLanguage)
          ? (course.targetLanguage as AlignLanguageCode)
          : "fr";
        items.push(
          ...(await importDrop(
            { lessons, media, alignment },
            { courseId: course.id, ownerId: principalOf(request).id, lang, files },
          )),
        );
      } finally {
        await Promise.all([...received, ...files].map((f) => rm(f.tempFile, { force: true })));
      }
      // each lesson made is in the audit log as if created by hand, with the files it came from
      for (const item of items) {
        if (!item.lesson_id) continue;
        const lesson = await lessons.get(course.id, item.lesson_id);
        await audit.record({
          actor: principalOf(request),
          action: "lessons.create",
          target: { type: "lesson", id: lesson.id, label: lesson.titleFr },
          after: {
            title_fr: lesson.titleFr,
            title_en: lesson.titleEn,
            audio: item.audio,
            script: item.script,
          },
        });
      }
      const created = items.filter((i) => i.status !== "failed").length;
      return {
        message: `${created} lesson${created === 1 ? "" : "s"} created`,
        data: { items, created, failed: items.length - created },
      };
    },
  );
}
