import { z } from "zod";
import { envelope } from "./common";

/**
 * Speaking practice ("repeat after me"): a learner's recording of one lesson line. Recordings stay
 * in the browser (IndexedDB) unless the learner keeps one on their account: then it is uploaded,
 * one per line (keeping another replaces it), readable and deletable by its owner only.
 */

/** A kept recording is at most this large (about two minutes of Opus): 413 above. */
export const MAX_RECORDING_BYTES = 2 * 1024 * 1024;
/** The longest recording the practice panel makes, in seconds. */
export const MAX_RECORDING_SECONDS = 30;

export const recording = z
  .object({
    id: z.string(),
    cue_id: z.string(),
    lesson_id: z.string(),
    /** The container found in the bytes (audio/webm, audio/ogg, audio/mp4…). */
    mime_type: z.string(),
    size: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: "Recording" });
export type Recording = z.infer<typeof recording>;

export const recordingListQuery = z.object({
  /** Only the recordings of this lesson's lines. */
  lesson_id: z.uuid().optional(),
});
export const recordingListResponse = envelope(z.object({ recordings: z.array(recording) }));
export type RecordingListResponse = z.infer<typeof recordingListResponse>;

export const recordingResponse = envelope(z.object({ recording }));
export type RecordingResponse = z.infer<typeof recordingResponse>;
