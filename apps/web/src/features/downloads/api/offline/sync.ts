import type { LessonListResponse } from "@parlons/contract";
import { api } from "@/lib/api";
import { ApiError } from "@/lib/api-error";
import { offlineDb } from "./db";
import { offlineSupported, recheckDownloads } from "./downloads";
import { flushListening, sendListening } from "./listening";
import { flushOutbox } from "./outbox";
import { sendProgress } from "./progress";

/** The lessons of a course as this learner may open them now; null when the course is gone. */
async function lessonsOf(courseId: string): Promise<LessonListResponse["data"] | null> {
  try {
    return (await api<LessonListResponse>(`/v1/courses/${courseId}/lessons`, { silent: true })).data;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return null;
    throw error; // the network again: nothing is deleted on a guess
  }
}

/** Sends the progress and the listening queued for this user (at start, when the network is back). */
export async function flushProgress(userId: string): Promise<number> {
  if (typeof indexedDB === "undefined") return 0;
  const db = await offlineDb();
  const sent = await flushOutbox(db, userId, sendProgress);
  await flushListening(db, userId, sendListening);
  return sent;
}

/** At each online start: queued progress first (it was made with access), then downloads re-checked. */
export async function onlineStart(userId: string): Promise<void> {
  if (!offlineSupported()) return;
  await flushProgress(userId);
  await recheckDownloads(userId, lessonsOf);
}
