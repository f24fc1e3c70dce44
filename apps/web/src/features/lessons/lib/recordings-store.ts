import { type DBSchema, type IDBPDatabase, openDB } from "idb";

/** A recording of a line kept in this browser only (until the learner keeps it on their account). */
export interface LocalRecording {
  /** `user:lesson:cue` (see recordingKey). */
  key: string;
  blob: Blob;
  mimeType: string;
  recordedAt: number;
}

interface RecordingSchema extends DBSchema {
  recordings: { key: string; value: LocalRecording };
}

const DB_NAME = "parlons-recordings";
let opening: Promise<IDBPDatabase<RecordingSchema>> | null = null;

function db(): Promise<IDBPDatabase<RecordingSchema>> {
  opening ??= openDB<RecordingSchema>(DB_NAME, 1, {
    upgrade(database) {
      database.createObjectStore("recordings", { keyPath: "key" });
    },
  });
  return opening;
}

/** The recordings on this device: IndexedDB, one per user, lesson and line (a new one replaces it). */
export const localRecordings = {
  async get(key: string): Promise<LocalRecording | undefined> {
    return (await db()).get("recordings", key);
  },
  async put(recording: LocalRecording): Promise<void> {
    await (await db()).put("recordings", recording);
  },
  async delete(key: string): Promise<void> {
    await (await db()).delete("recordings", key);
  },
};

/** Tests: forget the open connection (fake-indexeddb is reset between tests). */
export function closeRecordingsDb(): void {
  void opening?.then((d) => d.close());
  opening = null;
}
