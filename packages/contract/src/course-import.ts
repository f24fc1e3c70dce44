import { z } from "zod";
import { envelope } from "./common";
import { ERROR_CODES } from "./errors";

/**
 * A whole course in one drop (`POST /courses/{courseId}/imports`, multipart, `file` parts): zips
 * and loose files, audio and scripts paired by name (`01-bonjour.mp3` with `01-bonjour.txt`,
 * `.vtt` or `.srt`), with an optional `course.json` or `course.csv` for the lessons' titles.
 */
export const COURSE_IMPORT_LIMITS = {
  /** Files in one request (zips count as one). */
  files: 200,
  /** Entries in one zip. */
  zipEntries: 400,
  /** Bytes of everything received and unpacked, together. */
  totalBytes: 1024 * 1024 * 1024,
  /** Largest ratio of an entry's size to its packed size, for entries over 1 MB. */
  zipRatio: 50,
} as const;

export const IMPORT_SCRIPT_EXTENSIONS = ["txt", "vtt", "srt"] as const;

/** What became of one lesson of the drop (its audio and its script, by their shared name). */
export const courseImportItem = z.object({
  /** The shared name (`01-bonjour`), or the file's own when it pairs with nothing. */
  name: z.string(),
  audio: z.string().nullable(),
  script: z.string().nullable(),
  /** `aligning`: created, its lines on their way (poll the lesson's `…/align`); `ready`: created with the script's times; `failed`: nothing kept. */
  status: z.enum(["aligning", "ready", "failed"]),
  lesson_id: z.string().nullable(),
  /** The alignment job, when the script was plain text. */
  job_id: z.string().nullable(),
  /** Which file failed and why: an error code the web translates and an English message. */
  error: z.object({ file: z.string(), code: z.enum(ERROR_CODES), message: z.string() }).nullable(),
});
export type CourseImportItem = z.infer<typeof courseImportItem>;

export const courseImportResponse = envelope(
  z.object({
    items: z.array(courseImportItem),
    created: z.number().int(),
    failed: z.number().int(),
  }),
);
export type CourseImportResponse = z.infer<typeof courseImportResponse>;

/** `course.json`: titles by the shared name, in any order (lessons are created in name order). */
export const courseImportManifest = z.object({
  lessons: z
    .array(
      z.object({
        name: z.string().min(1).max(200),
        title_fr: z.string().min(1).max(200).optional(),
        title_en: z.string().min(1).max(200).optional(),
        free: z.boolean().optional(),
      }),
    )
    .max(1000),
});
export type CourseImportManifest = z.infer<typeof courseImportManifest>;
