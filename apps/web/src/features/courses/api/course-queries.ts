import {
  type CourseItem,
  type CourseListResponse,
  type CourseResponse,
  type CustomerProgressResponse,
  type LessonItem,
  type LessonListResponse,
  type PublicCourseListQuery,
  pickField,
} from "@parlons/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { api } from "@/lib/api";
import type { Lang } from "@/lib/locale-path";

/**
 * Courses and lessons reads (spec §7) shared by the course, lesson, dashboard and home pages:
 * one query key per resource, so that a mutation anywhere refreshes every view. Each feature's
 * own calls live in features/courses/api and features/lessons/api.
 */
export const courseKeys = {
  all: ["courses"] as const,
  list: (
    scope: "active" | "popular" | "staff",
    query: Partial<PublicCourseListQuery> & { search?: string },
  ) => ["courses", scope, query] as const,
  single: (ref: string) => ["courses", "single", ref] as const,
  progress: ["courses", "progress"] as const,
  overview: (id: string) => ["courses", "overview", id] as const,
  lessons: (courseId: string) => ["lessons", courseId] as const,
};

export type CourseListQueryInput = Partial<PublicCourseListQuery>;

export function courseListQuery(scope: "active" | "popular" | "staff", query: CourseListQueryInput = {}) {
  const path = scope === "staff" ? "/v1/courses" : (`/v1/courses/${scope}` as const);
  return queryOptions({
    queryKey: courseKeys.list(scope, query),
    queryFn: ({ signal }) =>
      api<CourseListResponse>(path, { query: { ...query }, signal, silent: scope !== "staff" }).then(
        (r) => r.data,
      ),
    placeholderData: (previous) => previous,
  });
}

export function courseQuery(ref: string) {
  return queryOptions({
    queryKey: courseKeys.single(ref),
    queryFn: ({ signal }) =>
      api<CourseResponse>(`/v1/courses/single/${encodeURIComponent(ref)}`, { signal, silent: true }).then(
        (r) => r.data.course,
      ),
    retry: (count, error) => count < 2 && !(error as { status?: number }).status,
  });
}

/** Lessons of a course for the caller: `locked` per lesson, signed audio URLs for open ones. */
export function lessonsQuery(courseId: string | undefined) {
  return queryOptions({
    queryKey: courseKeys.lessons(courseId ?? ""),
    queryFn: ({ signal }) =>
      api<LessonListResponse>(`/v1/courses/${courseId}/lessons`, { signal }).then((r) => r.data),
    enabled: Boolean(courseId),
    // signed audio URLs are short-lived: refresh the list well before they expire
    staleTime: 60_000,
  });
}

/** The course of the page's `:id` (an id or a slug) and, once it is known, its lessons. */
export function useRouteCourse() {
  const { id = "" } = useParams();
  const course = useQuery(courseQuery(id));
  const lessons = useQuery(lessonsQuery(course.data?.id));
  return { course, lessons };
}

/** Monday 00:00 of the current week in the learner's time zone. */
export function weekStart(now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return d.toISOString();
}

export function customerProgressQuery() {
  return queryOptions({
    queryKey: courseKeys.progress,
    queryFn: ({ signal }) =>
      api<CustomerProgressResponse>("/v1/courses/customer/progress", {
        query: { week_start: weekStart() },
        signal,
      }).then((r) => r.data),
  });
}

// ---- presentation helpers ----

export function courseTitle(course: Pick<CourseItem, "title_fr" | "title_en">, lang: Lang): string {
  return pickField(course, "title", lang);
}

export function lessonTitle(lesson: Pick<LessonItem, "title_fr" | "title_en">, lang: Lang): string {
  return pickField(lesson, "title", lang);
}
