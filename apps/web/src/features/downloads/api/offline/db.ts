import type { DoneCustomerBody } from "@parlons/contract";
import { type DBSchema, type IDBPDatabase, openDB } from "idb";

/** A lesson kept for offline listening (its audio is in the audio cache under audioCacheKey). */
export interface DownloadRecord {
  lessonId: string;
  courseId: string;
  /** Whose download it is: another account signing in on this browser does not get it. */
  userId: string;
  courseTitle: { fr: string; en: string };
  title: { fr: string; en: string };
  position: number;
  /** Free lessons stay open on any plan; the others are checked again at each online start. */
  free: boolean;
  bytes: number;
  downloadedAt: string;
}

/** Progress made while the network was gone (or whose answer was lost), waiting to be sent. */
export interface OutboxEntry {
  /** Insertion order (auto-increment): entries are sent in the order they were made. */
  seq?: number;
  /** Sent as Idempotency-Key: a retry of a call the server already applied is not applied again. */
  key: string;
  userId: string;
  courseId: string;
  body: DoneCustomerBody;
  createdAt: number;
}

/**
 * Seconds listened in one minute of one lesson that the player could not send (the network was
 * gone, or the tab closed offline), waiting to be sent. The server keeps the largest value it got
 * for a minute, so a record sent twice never counts twice.
 */
export interface ListeningRecord {
  /** `user|lesson|minute`: one record per minute, raised to the largest value queued. */
  id: string;
  userId: string;
  lessonId: string;
  /** ISO start of the minute. */
  minute: string;
  seconds: number;
}

interface OfflineSchema extends DBSchema {
  downloads: { key: string; value: DownloadRecord; indexes: { byCourse: string } };
  outbox: { key: number; value: OutboxEntry };
  listening: { key: string; value: ListeningRecord; indexes: { byUser: string } };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

const DB_NAME = "parlons-offline";
let opening: Promise<OfflineDb> | null = null;

/** The browser's database of downloads, queued progress and queued listening (one per origin). */
export function offlineDb(): Promise<OfflineDb> {
  opening ??= openDB<OfflineSchema>(DB_NAME, 2, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        const downloads = db.createObjectStore("downloads", { keyPath: "lessonId" });
        downloads.createIndex("byCourse", "courseId");
        db.createObjectStore("outbox", { keyPath: "seq", autoIncrement: true });
      }
      if (oldVersion < 2) {
        const listening = db.createObjectStore("listening", { keyPath: "id" });
        listening.createIndex("byUser", "userId");
      }
    },
    // another tab opens a newer version (a new deploy): this connection steps aside, the next call reopens
    blocking() {
      closeOfflineDb();
    },
  });
  return opening;
}

/** Tests: forget the open connection (fake-indexeddb is reset between tests). */
export function closeOfflineDb(): void {
  void opening?.then((db) => db.close());
  opening = null;
}

/** Tests: a new, empty database (the previous one closed and deleted). */
export async function freshOfflineDb(): Promise<OfflineDb> {
  closeOfflineDb();
  await new Promise<void>((resolve, reject) => {
    const req = indexedDB.deleteDatabase(DB_NAME);
    req.onsuccess = () => resolve();
    req.onerror = () => reject(req.error);
  });
  return offlineDb();
}
