import type { CourseItem, LessonItem, LessonListResponse } from "@parlons/contract";
import { useEffect, useState } from "react";
import { getAccessToken } from "@/lib/api";
import { type DownloadRecord, offlineDb } from "./db";
import { audioCacheKey, CACHE_NAMES, courseReadPath, lessonsReadPath } from "./keys";

/**
 * Lessons kept for offline listening: the audio, whole, in the audio cache under the lesson's
 * id (the service worker answers the signed URL's Range requests from it), the course and
 * lessons reads (title, text, transcript, cues) in the data cache, and a record per lesson in
 * IndexedDB for the downloads page.
 */

const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};

export interface DownloadProgress {
  done: number;
  total: number;
  bytes: number;
}

/** Lessons of a list that can be downloaded: open to this learner and with audio. */
export function downloadable(lessons: LessonItem[]): LessonItem[] {
  return lessons.filter((l) => !l.locked && l.audio?.url);
}

function authHeaders(): HeadersInit {
  const token = getAccessToken();
  return token
    ? { Authorization: `Bearer ${token}`, Accept: "application/json" }
    : { Accept: "application/json" };
}

/** Keeps an API read in the data cache, as the service worker does at each visit. */
async function keepRead(path: string): Promise<void> {
  const res = await fetch(path, { headers: authHeaders(), credentials: "include" });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  await (await caches.open(CACHE_NAMES.data)).put(path, res);
}

async function fetchAudio(url: string, onBytes: (n: number) => void, signal?: AbortSignal): Promise<Blob> {
  const res = await fetch(url, { credentials: "include", signal });
  if (res.status !== 200 || !res.body) throw new Error(`audio answered ${res.status}`);
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    onBytes(value.byteLength);
  }
  return new Blob(parts as BlobPart[], { type: res.headers.get("content-type") ?? "audio/mpeg" });
}

/**
 * Downloads lessons of one course for offline use, one after the other, reporting lessons and
 * bytes done. A lesson already downloaded is skipped. Asks the browser to keep the storage.
 */
export async function downloadLessons(
  input: {
    userId: string;
    course: Pick<CourseItem, "id" | "title_fr" | "title_en">;
    lessons: LessonItem[];
  },
  onProgress: (p: DownloadProgress) => void,
  signal?: AbortSignal,
): Promise<void> {
  const wanted = downloadable(input.lessons);
  const progress: DownloadProgress = { done: 0, total: wanted.length, bytes: 0 };
  onProgress({ ...progress });
  void navigator.storage?.persist?.().catch(() => false);
  await keepRead(courseReadPath(input.course.id));
  await keepRead(lessonsReadPath(input.course.id));
  const db = await offlineDb();
  const audio = await caches.open(CACHE_NAMES.audio);
  for (const lesson of wanted) {
    if (!(await db.get("downloads", lesson.id)) || !(await audio.match(audioCacheKey(lesson.id)))) {
      const blob = await fetchAudio(
        lesson.audio?.url ?? "",
        (n) => {
          progress.bytes += n;
          onProgress({ ...progress });
        },
        signal,
      );
      await audio.put(
        audioCacheKey(lesson.id),
        new Response(blob, {
          headers: { "Content-Type": blob.type, "Content-Length": String(blob.size) },
        }),
      );
      await db.put("downloads", {
        lessonId: lesson.id,
        courseId: input.course.id,
        userId: input.userId,
        courseTitle: { fr: input.course.title_fr, en: input.course.title_en },
        title: { fr: lesson.title_fr, en: lesson.title_en },
        position: lesson.position,
        free: lesson.free,
        bytes: blob.size,
        downloadedAt: new Date().toISOString(),
      });
      changed();
    }
    progress.done += 1;
    onProgress({ ...progress });
  }
}

export async function listDownloads(): Promise<DownloadRecord[]> {
  const all = await (await offlineDb()).getAll("downloads");
  return all.sort((a, b) => a.courseId.localeCompare(b.courseId) || a.position - b.position);
}

/** Deletes downloaded lessons (their audio and their record). */
export async function removeDownloads(lessonIds: string[]): Promise<void> {
  if (lessonIds.length === 0) return;
  const db = await offlineDb();
  const audio = await caches.open(CACHE_NAMES.audio);
  for (const id of lessonIds) {
    await audio.delete(audioCacheKey(id));
    await db.delete("downloads", id);
  }
  changed();
}

/** Everything kept offline goes (sign-out: the next person on this browser gets none of it). */
export async function clearOfflineData(): Promise<void> {
  await Promise.all([caches.delete(CACHE_NAMES.audio), caches.delete(CACHE_NAMES.data)]);
  const db = await offlineDb();
  await Promise.all([db.clear("downloads"), db.clear("outbox")]);
  changed();
}

/**
 * Downloads respect the plan: at each online start, every course with downloads is asked again
 * for its lessons; a lesson now locked (the premium plan ended), gone or without audio is deleted,
 * and so are another account's downloads. `lessonsOf` answers null for a course that is gone.
 */
export async function recheckDownloads(
  userId: string,
  lessonsOf: (courseId: string) => Promise<LessonListResponse["data"] | null>,
): Promise<string[]> {
  const records = await listDownloads();
  const removed: string[] = records.filter((r) => r.userId !== userId).map((r) => r.lessonId);
  const courses = new Set(records.filter((r) => r.userId === userId).map((r) => r.courseId));
  for (const courseId of courses) {
    const data = await lessonsOf(courseId);
    const open = new Set(downloadable(data?.lessons ?? []).map((l) => l.id));
    for (const r of records) {
      if (r.courseId === courseId && r.userId === userId && !open.has(r.lessonId)) removed.push(r.lessonId);
    }
  }
  await removeDownloads(removed);
  return removed;
}

/** The downloads, kept up to date (null while the first read runs). */
export function useDownloads(): DownloadRecord[] | null {
  const [records, setRecords] = useState<DownloadRecord[] | null>(null);
  useEffect(() => {
    let live = true;
    const load = () => {
      void listDownloads().then(
        (list) => live && setRecords(list),
        () => live && setRecords([]),
      );
    };
    load();
    listeners.add(load);
    return () => {
      live = false;
      listeners.delete(load);
    };
  }, []);
  return records;
}

/** Bytes this site uses and may use (`navigator.storage.estimate`), when the browser tells. */
export async function storageEstimate(): Promise<{ usage: number; quota: number } | null> {
  const estimate = await navigator.storage?.estimate?.();
  if (!estimate || estimate.usage === undefined || estimate.quota === undefined) return null;
  return { usage: estimate.usage, quota: estimate.quota };
}

/** Whether the browser can keep lessons offline at all. */
export function offlineSupported(): boolean {
  return typeof caches !== "undefined" && typeof indexedDB !== "undefined" && "serviceWorker" in navigator;
}
