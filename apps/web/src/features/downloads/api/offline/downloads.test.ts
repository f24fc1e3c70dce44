import "fake-indexeddb/auto";
import type { LessonItem } from "@parlons/contract";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { closeOfflineDb, type DownloadRecord, offlineDb } from "./db";
import { listDownloads, recheckDownloads } from "./downloads";
import { audioCacheKey, CACHE_NAMES } from "./keys";

/** The part of CacheStorage downloads use, in memory (Node has no Cache API). */
function memoryCaches() {
  const stores = new Map<string, Map<string, Response>>();
  const open = async (name: string) => {
    const store = stores.get(name) ?? new Map<string, Response>();
    stores.set(name, store);
    return {
      match: async (key: string) => store.get(key),
      put: async (key: string, res: Response) => void store.set(key, res),
      delete: async (key: string) => store.delete(key),
      keys: async () => [...store.keys()],
    };
  };
  return { open, delete: async (name: string) => stores.delete(name), stores };
}

let cachesStub: ReturnType<typeof memoryCaches>;

beforeEach(async () => {
  closeOfflineDb();
  await new Promise<void>((resolve) => {
    const req = indexedDB.deleteDatabase("parlons-offline");
    req.onsuccess = () => resolve();
  });
  cachesStub = memoryCaches();
  (globalThis as { caches?: unknown }).caches = cachesStub;
});
afterEach(() => closeOfflineDb());

const record = (lessonId: string, courseId: string, free: boolean, userId = "u1"): DownloadRecord => ({
  lessonId,
  courseId,
  userId,
  courseTitle: { fr: "Cours", en: "Course" },
  title: { fr: lessonId, en: lessonId },
  position: 1,
  free,
  bytes: 10,
  downloadedAt: new Date().toISOString(),
});

async function seed(records: DownloadRecord[]) {
  const db = await offlineDb();
  const audio = await caches.open(CACHE_NAMES.audio);
  for (const r of records) {
    await db.put("downloads", r);
    await audio.put(audioCacheKey(r.lessonId), new Response("mp3"));
  }
}

const lesson = (id: string, locked: boolean): LessonItem =>
  ({
    id,
    locked,
    audio: locked ? null : { url: `/api/v1/media/audio/${id}?sig=x`, expires_at: "" },
  }) as LessonItem;

describe("downloads and the plan", () => {
  it("deletes premium lessons locked again once the plan ended; free ones stay", async () => {
    await seed([record("free1", "c1", true), record("paid1", "c1", false), record("paid2", "c1", false)]);
    const removed = await recheckDownloads("u1", async () => ({
      access: "free",
      lessons: [lesson("free1", false), lesson("paid1", true), lesson("paid2", true)],
    }));
    expect(removed.sort()).toEqual(["paid1", "paid2"]);
    expect((await listDownloads()).map((r) => r.lessonId)).toEqual(["free1"]);
    const audio = cachesStub.stores.get(CACHE_NAMES.audio);
    expect([...(audio?.keys() ?? [])]).toEqual([audioCacheKey("free1")]);
  });

  it("keeps everything while the plan lasts, drops a course that is gone and another account's downloads", async () => {
    await seed([record("a", "c1", false), record("b", "gone", true), record("c", "c1", false, "u2")]);
    const removed = await recheckDownloads("u1", async (courseId) =>
      courseId === "c1" ? { access: "all", lessons: [lesson("a", false)] } : null,
    );
    expect(removed.sort()).toEqual(["b", "c"]);
    expect((await listDownloads()).map((r) => r.lessonId)).toEqual(["a"]);
  });

  it("deletes nothing when the check cannot reach the server", async () => {
    await seed([record("a", "c1", false)]);
    await expect(
      recheckDownloads("u1", async () => {
        throw new Error("network");
      }),
    ).rejects.toThrow("network");
    expect(await listDownloads()).toHaveLength(1);
  });
});
