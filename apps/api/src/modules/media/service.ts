import { randomUUID } from "node:crypto";
import { rm } from "node:fs/promises";
import type { MediaType, UploadResponse } from "@parlons/contract";
import { eq, inArray } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { media } from "../../db/schema/media";
import type { Storage } from "../../integrations/storage/storage";
import { AppError } from "../../lib/errors";
import { declaredMediaType, type ReceivedUpload } from "../../plugins/uploads";
import { plausibleMp3, walkMp3Frames } from "./mp3-frames";
import { createStorageTrash, type KeysInUse } from "./trash";

export type MediaRow = typeof media.$inferSelect;

const AUDIO_NOT_PLAUSIBLE =
  "The file is not a playable MP3: its audio frames do not fill it or do not match its length";

async function audioDuration(file: string): Promise<number | null> {
  try {
    // imported on the first upload, not at start-up
    const { parseFile } = await import("music-metadata");
    const meta = await parseFile(file, { duration: true, skipCovers: true });
    const seconds = meta.format.duration;
    return seconds && Number.isFinite(seconds) && seconds > 0 ? Math.max(1, Math.round(seconds)) : null;
  } catch {
    return null;
  }
}

/**
 * Uploaded files: their rows (owner, type, size, duration) and their bytes in storage. Files on
 * their way out go through the storage trash, so that a process stopped between a commit and a
 * file's deletion (or between an upload's bytes and its row) leaves nothing behind for long.
 */
export function createMediaService(deps: {
  db: Db;
  storage: Storage;
  /** The other modules that keep files in this storage: which keys their rows still use. */
  alsoInUse?: KeysInUse[];
}) {
  const { db, storage } = deps;
  const trash = createStorageTrash({ db, storage, alsoInUse: deps.alsoInUse });

  return {
    storage,
    trash,

    /** Keeps a received upload: measures audio, moves it under a random name, records it. */
    async keep(ownerId: string, upload: ReceivedUpload): Promise<UploadResponse["data"]> {
      try {
        const wanted: MediaType = declaredMediaType(upload.declaredType);
        if (upload.sniffed.type !== wanted) {
          throw new AppError(
            415,
            "UNSUPPORTED_MEDIA_TYPE",
            wanted === "audio" ? "The file is not an MP3" : "The file is not a PNG, JPEG or WebP image",
          );
        }
        let duration: number | null = null;
        if (wanted === "audio") {
          duration = await audioDuration(upload.tempFile);
          if (duration === null) {
            throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "The MP3 file could not be read");
          }
          // an MP3 header before anything at all (99 MB of zeros was kept as 7 h 10 min): the frames
          // must fill the file and hold the duration read from its header
          const frames = await walkMp3Frames(upload.tempFile, upload.size);
          if (
            !plausibleMp3(frames) ||
            Math.abs(duration - frames.seconds) > Math.max(2, frames.seconds * 0.1)
          ) {
            throw new AppError(422, "AUDIO_NOT_PLAUSIBLE", AUDIO_NOT_PLAUSIBLE, {
              file: [AUDIO_NOT_PLAUSIBLE],
            });
          }
        }
        const folder = wanted === "audio" ? "audio" : "images";
        const key = `${folder}/${randomUUID()}.${upload.sniffed.ext}`;
        // marked before the bytes are written, unmarked with the row: no file without a row survives a stop
        await trash.mark([key]);
        let row: MediaRow | undefined;
        try {
          await storage.putFile(key, upload.tempFile);
          row = await db.transaction(async (tx) => {
            const [inserted] = await tx
              .insert(media)
              .values({
                ownerId,
                type: wanted,
                path: key,
                mimeType: upload.sniffed.mime,
                size: upload.size,
                duration,
              })
              .returning();
            await trash.unmark([key], tx);
            return inserted;
          });
        } catch (err) {
          await trash.empty([key]);
          throw err;
        }
        if (!row) throw new Error("media insert returned nothing");
        return {
          file_path: key,
          ...(duration !== null ? { audioDuration: duration } : {}),
          media: { id: row.id, type: row.type, mime_type: row.mimeType, size: row.size },
        };
      } finally {
        await rm(upload.tempFile, { force: true });
      }
    },

    async findByPath(path: string, tx: DbOrTx = db): Promise<MediaRow | undefined> {
      const [row] = await tx.select().from(media).where(eq(media.path, path));
      return row;
    },

    /** Forgets the rows of files that are no longer used and marks the files (inside the caller's transaction). */
    async forget(paths: string[], tx: DbOrTx = db): Promise<void> {
      if (paths.length === 0) return;
      await tx.delete(media).where(inArray(media.path, paths));
      await trash.mark(paths, tx);
    },

    /** Deletes the bytes; call after the transaction that forgot them has committed. */
    deleteFiles: (paths: string[]): Promise<number> => trash.empty(paths),

    /** Forgets and deletes in one go (no surrounding transaction). */
    async release(paths: string[]): Promise<number> {
      if (paths.length === 0) return 0;
      await this.forget(paths);
      return this.deleteFiles(paths);
    },
  };
}
export type MediaService = ReturnType<typeof createMediaService>;
