import type { CourseBody, CourseItem, CourseResponse, CourseUpdateBody } from "@parlons/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api";
import type { MutationConfig } from "@/lib/mutation";
import { courseKeys } from "./course-queries";

/** What the course form sends (the server fills `position` and `slug` when absent). */
export type CourseInput = Omit<CourseBody, "position"> & Partial<Pick<CourseBody, "position">>;

const createCourse = (body: CourseInput) =>
  api<CourseResponse>("/v1/courses", { method: "POST", body }).then((r) => r.data.course);

const updateCourse = (id: string, body: CourseUpdateBody) =>
  api<CourseResponse>(`/v1/courses/${id}`, { method: "PUT", body }).then((r) => r.data.course);

const togglePopular = (id: string, popular: boolean) =>
  api<CourseResponse>(`/v1/courses/popular-unpopular/${id}`, { method: "PUT", body: { popular } }).then(
    (r) => r.data.course,
  );

export const deleteCourse = (id: string, force = false) =>
  api<{ data: { id: string } }>(`/v1/courses/${id}`, { method: "DELETE", query: { force } });

/** Publishes now (`at` null) or at a later time; 422 COURSE_NOT_PUBLISHABLE says what is missing. */
const publishCourse = (id: string, at: string | null) =>
  api<CourseResponse>(`/v1/courses/${id}/publish`, { method: "POST", body: { at } }).then(
    (r) => r.data.course,
  );

const unpublishCourse = (id: string) =>
  api<CourseResponse>(`/v1/courses/${id}/unpublish`, { method: "POST" }).then((r) => r.data.course);

/** Publishes (now or at a time: `{ at }`) or unpublishes (`null`), then every course view is read again. */
export function usePublishCourse(
  courseId: string,
  config: MutationConfig<CourseItem, { at: string | null } | null> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: (what: { at: string | null } | null) =>
      what ? publishCourse(courseId, what.at) : unpublishCourse(courseId),
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: courseKeys.all });
      config.onSuccess?.(...args);
    },
  });
}

/** Puts a course in (or out of) the home page's popular ones, then every course view is read again. */
export function useTogglePopular(courseId: string, config: MutationConfig<CourseItem, boolean> = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: (popular: boolean) => togglePopular(courseId, popular),
    onSuccess: (...args) => {
      config.onSuccess?.(...args);
      void queryClient.invalidateQueries({ queryKey: courseKeys.all });
    },
  });
}

/** Creates the course (`course` absent) or updates it, then every course view is read again. */
export function useSaveCourse(
  course: Pick<CourseItem, "id"> | null | undefined,
  config: MutationConfig<CourseItem, CourseInput> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    ...config,
    mutationFn: (values: CourseInput) => (course ? updateCourse(course.id, values) : createCourse(values)),
    onSuccess: (...args) => {
      void queryClient.invalidateQueries({ queryKey: courseKeys.all });
      config.onSuccess?.(...args);
    },
  });
}
