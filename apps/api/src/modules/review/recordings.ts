import { randomUUID } from "node:crypto";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { MAX_RECORDING_BYTES, type Recording } from "@parlons/contract";
import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { lineRecordings } from "../../db/schema/review";
import type { Storage } from "../../integrations/storage/storage";
import { AppError, notFound, validationFailed } from "../../lib/errors";
import { PRIVATE_FILE_MODE } from "../../lib/private-files";
import type { LessonService } from "../lessons/service";
import type { KeysInUse, StorageTrash } from "../media/trash";
import type { Reviewer } from "./service";

type Row = typeof lineRecordings.$inferSelect;

/** What MediaRecorder makes (Chrome and Firefox: WebM or Ogg with Opus; Safari: MP4/AAC), by the type file-type finds. */
const ACCEPTED: Record<string, { mime: string; ext: string }> = {
  "video/webm": { mime: "audio/webm", ext: "webm" },
  "audio/webm": { mime: "audio/webm", ext: "webm" },
  "audio/ogg": { mime: "audio/ogg", ext: "ogg" },
  "audio/opus": { mime: "audio/ogg", ext: "ogg" },
  "audio/ogg; codecs=opus": { mime: "audio/ogg", ext: "ogg" },
  "audio/mp4": { mime: "audio/mp4", ext: "m4a" },
  "audio/x-m4a": { mime: "audio/mp4", ext: "m4a" },
  "video/mp4": { mime: "audio/mp4", ext: "m4a" },
  "audio/mpeg": { mime: "audio/mpeg", ext: "mp3" },
  "audio/wav": { mime: "audio/wav", ext: "wav" },
};

export const RECORDING_TOO_LARGE = `A recording must be smaller than ${MAX_RECORDING_BYTES / 1024 / 1024} MB`;

const present = (r: Row): Recording => ({
  id: r.id,
  cue_id: r.cueId,
  lesson_id: r.lessonId,
  mime_type: r.mimeType,
  size: r.size,
  created_at: r.createdAt.toISOString(),
});

/** The container of a recording from its bytes (the client's content type is not trusted), or null. */
async function sniffRecording(bytes: Uint8Array): Promise<{ mime: string; ext: string } | null> {
  // file-type is imported on the first upload, not at start-up
  const { fileTypeFromBuffer } = await import("file-type");
  const found = await fileTypeFromBuffer(bytes);
  return (found && ACCEPTED[found.mime]) ?? null;
}

/** The storage sweep's question to this module: which of these keys a kept recording still uses. */
export const recordingKeysInUse: KeysInUse = async (db, keys) =>
  (
    await db
      .select({ key: lineRecordings.storageKey })
      .from(lineRecordings)
      .where(inArray(lineRecordings.storageKey, keys))
  ).map((r) => r.key);

/**
 * The recordings' side of deleting lines (the lessons module's `LineFiles`): their rows go with
 * the line by ON DELETE CASCADE, so the lessons module reads their keys inside its transaction
 * and hands them back here once it has committed.
 */
export function recordingLineFiles(deps: { trash: StorageTrash }) {
  return {
    /** The keys of the lines' recordings, marked for deletion in the caller's transaction. */
    async keysOf(lines: { cueIds?: string[]; lessonIds?: string[] }, tx: DbOrTx): Promise<string[]> {
      const [column, ids] = lines.cueIds
        ? [lineRecordings.cueId, lines.cueIds]
        : [lineRecordings.lessonId, lines.lessonIds ?? []];
      if (ids.length === 0) return [];
      const rows = await tx
        .select({ key: lineRecordings.storageKey })
        .from(lineRecordings)
        .where(inArray(column, ids));
      const keys = rows.map((r) => r.key);
      await deps.trash.mark(keys, tx);
      return keys;
    },
    deleteFiles: async (keys: string[]) => {
      await deps.trash.empty(keys);
    },
  };
}

/**
 * Recordings a learner chose to keep on their account: one per line, stored in the media storage
 * (disk or S3) under a random key. Every read and write is the caller's own rows: another
 * learner's recording is "not found". Keeping one needs the line's lesson to open for the learner.
 */
export function createRecordingService(deps: {
  db: Db;
  storage: Storage;
  trash: StorageTrash;
  lessons: Pick<LessonService, "cuesByIds">;
  /** Throws the refusal unless the lesson opens for the reviewer (review.mustOpen, `mayOpen`). */
  mustOpen: (reviewer: Reviewer, lessonId: string) => Promise<void>;
}) {
  const { db, storage, trash } = deps;

  async function mine(userId: string, id: string): Promise<Row> {
    const [row] = await db
      .select()
      .from(lineRecordings)
      .where(and(eq(lineRecordings.id, id), eq(lineRecordings.userId, userId)));
    if (!row) throw notFound("Recording");
    return row;
  }

  const dropFile = async (key: string) => {
    await trash.empty([key]);
  };

  return {
    storage,

    /** Keeps the bytes for the line (replacing the learner's previous recording of it). */
    async keep(reviewer: Reviewer, cueId: string, bytes: Buffer): Promise<Recording> {
      if (bytes.length >= MAX_RECORDING_BYTES)
        throw new AppError(413, "PAYLOAD_TOO_LARGE", RECORDING_TOO_LARGE, { file: [RECORDING_TOO_LARGE] });
      if (bytes.length === 0) throw validationFailed({ file: ["The recording is empty"] });
      const type = await sniffRecording(bytes);
      if (!type)
        throw new AppError(
          415,
          "UNSUPPORTED_MEDIA_TYPE",
          "Unsupported recording: send WebM, Ogg or MP4 audio as the browser records it",
        );
      const [cue] = await deps.lessons.cuesByIds([cueId]);
      if (!cue) throw notFound("Line");
      await deps.mustOpen(reviewer, cue.lessonId);

      const userId = reviewer.principal.id;
      const key = `recordings/${randomUUID()}.${type.ext}`;
      const temp = path.join(await storage.tempDir(), randomUUID());
      // marked before the bytes are written, unmarked with the row (see media/trash.ts)
      await trash.mark([key]);
      try {
        await writeFile(temp, bytes, { mode: PRIVATE_FILE_MODE });
        await storage.putFile(key, temp);
      } catch (err) {
        await dropFile(key);
        throw err;
      } finally {
        await rm(temp, { force: true });
      }
      try {
        const { row, replaced } = await db.transaction(async (tx) => {
          const [before] = await tx
            .select({ key: lineRecordings.storageKey })
            .from(lineRecordings)
            .where(and(eq(lineRecordings.userId, userId), eq(lineRecordings.cueId, cueId)))
            .for("update");
          const values = { storageKey: key, mimeType: type.mime, size: bytes.length, createdAt: new Date() };
          const [saved] = await tx
            .insert(lineRecordings)
            .values({ userId, cueId, lessonId: cue.lessonId, ...values })
            .onConflictDoUpdate({ target: [lineRecordings.userId, lineRecordings.cueId], set: values })
            .returning();
          await trash.unmark([key], tx);
          if (before && before.key !== key) await trash.mark([before.key], tx);
          return { row: saved as Row, replaced: before?.key };
        });
        if (replaced && replaced !== key) await dropFile(replaced);
        return present(row);
      } catch (err) {
        await dropFile(key);
        throw err;
      }
    },

    async list(userId: string, lessonId?: string): Promise<Recording[]> {
      const rows = await db
        .select()
        .from(lineRecordings)
        .where(
          and(
            eq(lineRecordings.userId, userId),
            lessonId ? eq(lineRecordings.lessonId, lessonId) : undefined,
          ),
        )
        .orderBy(desc(lineRecordings.createdAt))
        .limit(500);
      return rows.map(present);
    },

    /** The learner's own recording, with where its bytes are. */
    async get(userId: string, id: string): Promise<{ key: string; mime: string }> {
      const row = await mine(userId, id);
      return { key: row.storageKey, mime: row.mimeType };
    },

    async remove(userId: string, id: string): Promise<void> {
      const row = await mine(userId, id);
      await db.transaction(async (tx) => {
        await tx.delete(lineRecordings).where(eq(lineRecordings.id, row.id));
        await trash.mark([row.storageKey], tx);
      });
      await dropFile(row.storageKey);
    },

    /** Marks stored bytes inside the transaction that removes their rows (the account's erasure). */
    markFiles: (keys: string[], tx: DbOrTx) => trash.mark(keys, tx),
    /** Deletes stored bytes, after the rows are gone. */
    deleteFiles: async (keys: string[]) => {
      await trash.empty(keys);
    },
  };
}
export type RecordingService = ReturnType<typeof createRecordingService>;
