import { z } from "zod";
import { envelope } from "./common";

/** Media uploads and the signed audio URL (issue 3). */

/** Upload limit of spec §9: files of 100 MB or more are refused. */
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024;
export const UPLOAD_TOO_LARGE_MESSAGE = "File must be smaller than 100 MB";
export const UPLOAD_TOO_LARGE_MESSAGE_FR = "Le fichier doit faire moins de 100 Mo";
/** Default accepted type of the upload widget (spec §5). */
export const DEFAULT_UPLOAD_ACCEPT = "audio/mpeg";

export const MEDIA_TYPES = ["audio", "image"] as const;
export const mediaType = z.enum(MEDIA_TYPES);
export type MediaType = z.infer<typeof mediaType>;

export const uploadResponse = envelope(
  z.object({
    /** Storage path to send back in `audio` (lesson) or `cover` (course). */
    file_path: z.string(),
    /** Whole seconds, audio only. The spec's client stores `file_path:audioDuration`. */
    audioDuration: z.number().int().optional(),
    media: z.object({
      id: z.string(),
      type: mediaType,
      mime_type: z.string(),
      size: z.number().int(),
    }),
  }),
);
export type UploadResponse = z.infer<typeof uploadResponse>;

/** The signed audio URL's query: user ("anon" for a visitor), expiry (Unix seconds), storage key, HMAC. */
export const audioQuery = z.object({
  u: z.string().max(64),
  exp: z.coerce.number().int(),
  k: z.string().max(256),
  sig: z.string().max(128),
});
