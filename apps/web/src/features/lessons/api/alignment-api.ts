import type {
  AlignBody,
  AlignmentJob,
  AlignmentJobResponse,
  LatestAlignmentResponse,
  ProposeLinesBody,
} from "@parlons/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { courseKeys } from "@/features/courses/api/course-queries";
import { api } from "@/lib/api";

const alignPath = (courseId: string, lessonId: string) =>
  `/v1/courses/${courseId}/lessons/${lessonId}/align` as const;

const alignmentKeys = {
  latest: (lessonId: string) => ["alignment", lessonId] as const,
};

export const isActive = (job: AlignmentJob | null | undefined) =>
  job?.status === "queued" || job?.status === "running";

/** `GET …/align`: the lesson's latest alignment, read again every half second while it runs. */
export function latestAlignmentQuery(courseId: string, lessonId: string) {
  return queryOptions({
    queryKey: alignmentKeys.latest(lessonId),
    queryFn: ({ signal }) =>
      api<LatestAlignmentResponse>(alignPath(courseId, lessonId), { signal, silent: true }).then(
        (r) => r.data.job,
      ),
    refetchInterval: (query) => (isActive(query.state.data) ? 500 : false),
  });
}

/** `POST …/align`: queues an alignment; the latest-alignment query then follows it. */
export function useAlignLesson(courseId: string, lessonId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AlignBody) =>
      api<AlignmentJobResponse>(alignPath(courseId, lessonId), { method: "POST", body, silent: true }).then(
        (r) => r.data.job,
      ),
    onSuccess: (job) => queryClient.setQueryData(alignmentKeys.latest(lessonId), job),
  });
}

/**
 * `POST …/propose-lines`: lines proposed at the pauses of audio without a script (a job followed
 * like an alignment, by the latest-alignment query).
 */
export function useProposeLines(courseId: string, lessonId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProposeLinesBody) =>
      api<AlignmentJobResponse>(`/v1/courses/${courseId}/lessons/${lessonId}/propose-lines`, {
        method: "POST",
        body,
        silent: true,
      }).then((r) => r.data.job),
    onSuccess: (job) => queryClient.setQueryData(alignmentKeys.latest(lessonId), job),
  });
}

/** Once an alignment has written the lines: the course's lessons are read again. */
export function useLinesAligned(courseId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: courseKeys.lessons(courseId) });
}
