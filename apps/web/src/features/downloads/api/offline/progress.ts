import type { DoneCustomerBody, LessonProgress } from "@parlons/contract";
import { certificateKeys } from "@/features/certificates/api/certificate-queries";
import { api } from "@/lib/api";
import { ApiError } from "@/lib/api-error";
import { queryClient } from "@/lib/query-client";
import type { OutboxEntry } from "./db";
import { offlineDb } from "./db";
import { enqueue, type SendOutcome } from "./outbox";

export type SavedProgress = LessonProgress & { lesson_id: string };

const post = (courseId: string, body: DoneCustomerBody, key: string, silent?: boolean) =>
  api<{ data: { progress: SavedProgress; certificate?: { id: string } | null } }>(
    `/v1/courses/${courseId}/lessons/done-customer`,
    { method: "POST", body, silent, headers: { "Idempotency-Key": key } },
  ).then((r) => {
    // the lesson that finished the course issued its certificate: the dashboard and course page show it
    if (r.data.certificate) void queryClient.invalidateQueries({ queryKey: certificateKeys.all });
    return r.data.progress;
  });

/** The outbox's sender: a network failure (or a 5xx) waits for the next run, a 4xx is final. */
export async function sendProgress(entry: OutboxEntry): Promise<SendOutcome> {
  try {
    await post(entry.courseId, entry.body, entry.key, true);
    return "sent";
  } catch (error) {
    if (error instanceof ApiError && error.status >= 400 && error.status < 500) return "refused";
    return "retry";
  }
}

/** What the page shows for progress it could not send yet: the previous state with the change. */
function localProgress(lessonId: string, previous: LessonProgress | null, body: DoneCustomerBody) {
  const now = new Date().toISOString();
  const done = body.done ?? previous?.done ?? false;
  return {
    lesson_id: lessonId,
    done,
    done_at: done ? (previous?.done_at ?? now) : null,
    last_position: body.last_position ?? previous?.last_position ?? 0,
    play_count: (previous?.play_count ?? 0) + (body.played ? 1 : 0),
    updated_at: now,
  } satisfies SavedProgress;
}

/**
 * `POST done-customer` with an Idempotency-Key. When the network is gone (or the answer was
 * lost), the same call goes to the queue with the same key and the page gets the progress as it
 * will be: nothing is lost, and a call the server did apply is not applied twice.
 */
export async function saveProgress(
  courseId: string,
  body: DoneCustomerBody,
  opts: { userId?: string; previous?: LessonProgress | null; silent?: boolean } = {},
): Promise<SavedProgress> {
  const key = crypto.randomUUID();
  try {
    return await post(courseId, body, key, opts.silent ?? Boolean(opts.userId));
  } catch (error) {
    const offline = error instanceof ApiError && error.status === 0;
    if (!offline || !opts.userId || typeof indexedDB === "undefined") throw error;
    await enqueue(await offlineDb(), { key, userId: opts.userId, courseId, body });
    return localProgress(body.lesson_id, opts.previous ?? null, body);
  }
}
