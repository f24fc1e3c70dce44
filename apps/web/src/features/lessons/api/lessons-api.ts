import {
  type DoneCustomerBody,
  type LessonBody,
  type LessonColumnBody,
  type LessonCue,
  type LessonCuesBody,
  type LessonCuesResponse,
  type LessonItem,
  type LessonLink,
  type LessonProgress,
  type LessonResponse,
  type LessonUpdateBody,
  pickField,
} from "@parlons/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { courseKeys } from "@/features/courses/api/course-queries";
import { saveProgress } from "@/features/downloads/api/offline/progress";
import { API_BASE, api, getAccessToken } from "@/lib/api";
import type { Lang } from "@/lib/locale-path";
import type { MutationConfig } from "@/lib/mutation";
import { currentUserId } from "@/lib/session";

// ---- staff: lessons ----

const lessonsBase = (courseId: string) => `/v1/courses/${courseId}/lessons` as const;

const createLesson = (courseId: string, body: LessonBody) =>
  api<LessonResponse>(lessonsBase(courseId), { method: "POST", body }).then((r) => r.data.lesson);

const updateLesson = (courseId: string, id: string, body: LessonUpdateBody) =>
  api<LessonResponse>(`${lessonsBase(courseId)}/${id}`, { method: "PUT", body }).then((r) => r.data.lesson);

export const updateLessonColumn = (courseId: string, id: string, body: LessonColumnBody) =>
  api<LessonResponse>(`${lessonsBase(courseId)}/update-by-column/${id}`, { method: "PUT", body }).then(
    (r) => r.data.lesson,
  );

export const updateLessonLinks = (courseId: string, id: string, links: LessonLink[]) =>
  api<LessonResponse>(`${lessonsBase(courseId)}/update-links/${id}`, { method: "PUT", body: { links } }).then(
    (r) => r.data.lesson,
  );

export const deleteLesson = (courseId: string, id: string) =>
  api<{ data: { id: string } }>(`${lessonsBase(courseId)}/${id}`, { method: "DELETE" });

// ---- learner progress ----

export type { SavedProgress } from "@/features/downloads/api/offline/progress";

/**
 * `POST done-customer`: done / undo, resume position, play count. Without a network the call is
 * queued (IndexedDB) and sent when it comes back, once (features/downloads/api/offline/progress).
 */
export function saveLessonProgress(
  courseId: string,
  body: DoneCustomerBody,
  options: { silent?: boolean; previous?: LessonProgress | null } = {},
) {
  return saveProgress(courseId, body, {
    userId: currentUserId() ?? undefined,
    previous: options.previous,
    silent: options.silent,
  });
}

/** The same call for page unload: `keepalive` lets it finish after the tab closes. */
export function saveLessonPositionOnUnload(courseId: string, lessonId: string, lastPosition: number): void {
  const token = getAccessToken();
  if (!token) return;
  void fetch(`${API_BASE}${lessonsBase(courseId)}/done-customer`, {
    method: "POST",
    keepalive: true,
    credentials: "include",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify({ lesson_id: lessonId, last_position: lastPosition }),
  }).catch(() => undefined);
}

export function lessonText(lesson: Pick<LessonItem, "text_fr" | "text_en">, lang: Lang): string {
  return pickField(lesson, "text", lang);
}

type LessonSave = { id: null; body: Omit<LessonBody, "position"> } | { id: string; body: LessonUpdateBody };

/** Creates a lesson (`id: null`) or updates one, then the course's lessons and every course view are read again. */
export function useSaveLesson(courseId: string, config: MutationConfig<LessonItem, LessonSave> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: (save: LessonSave) =>
      save.id === null ? createLesson(courseId, save.body) : updateLesson(courseId, save.id, save.body),
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: courseKeys.lessons(courseId) });
      void queryClient.invalidateQueries({ queryKey: courseKeys.all });
      config.onSuccess?.(...args);
    },
  });
}

/** Replaces a lesson's transcript lines, then the course's lessons are read again. */
export function useSaveCues(
  courseId: string,
  lessonId: string,
  config: MutationConfig<LessonCue[], LessonCuesBody["cues"]> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: (cues: LessonCuesBody["cues"]) =>
      api<LessonCuesResponse>(`/v1/courses/${courseId}/lessons/${lessonId}/cues`, {
        method: "PUT",
        body: { cues },
        silent: true,
      }).then((r) => r.data.cues),
    onSuccess: (...args) => {
      config.onSuccess?.(...args);
      void queryClient.invalidateQueries({ queryKey: courseKeys.lessons(courseId) });
    },
  });
}
