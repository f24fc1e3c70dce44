import type { DoneCustomerBody, LessonListResponse, LessonProgress } from "@parlons/contract";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { courseKeys } from "@/features/courses/api/course-queries";
import { useLatest } from "@/lib/use-latest";
import { type SavedProgress, saveLessonProgress } from "./lessons-api";

type ProgressChange = Omit<DoneCustomerBody, "lesson_id">;

/**
 * The learner's progress in one lesson, saved and shown: the lesson's entry in the course's list
 * takes the saved progress, the dashboard's progress and the course overview are read again.
 * `known` is the progress as last shown (what the page shows of a call queued offline).
 */
export function useLessonProgress(
  courseId: string,
  lessonId: string,
  known: LessonProgress | null | undefined,
) {
  const queryClient = useQueryClient();
  // a ref, so that the player's callbacks keep their identity when a save refreshes the lesson
  const knownRef = useLatest(known);

  const save = useCallback(
    async (change: ProgressChange, options: { silent?: boolean } = {}): Promise<SavedProgress> => {
      const progress = await saveLessonProgress(
        courseId,
        { lesson_id: lessonId, ...change },
        { ...options, previous: knownRef.current },
      );
      queryClient.setQueryData<LessonListResponse["data"]>(courseKeys.lessons(courseId), (old) =>
        old
          ? {
              ...old,
              lessons: old.lessons.map((l) => (l.id === progress.lesson_id ? { ...l, progress } : l)),
            }
          : old,
      );
      void queryClient.invalidateQueries({ queryKey: courseKeys.progress });
      void queryClient.invalidateQueries({ queryKey: courseKeys.overview(courseId) });
      // a lesson finished makes a study day: the habit card reads it again (the habit API is
      // loaded then, not with the lesson page, which keeps its ceiling of files)
      if (progress.done)
        void import("@/features/habit/api/habit-api").then(({ habitKeys }) =>
          queryClient.invalidateQueries({ queryKey: habitKeys.summary }),
        );
      return progress;
    },
    [queryClient, courseId, lessonId, knownRef],
  );

  /** A save in the background (position, first play, done at the end): a failure says nothing. */
  const saveQuietly = useCallback(
    (change: ProgressChange) => {
      save(change, { silent: true }).catch(() => undefined);
    },
    [save],
  );

  return { save, saveQuietly };
}
