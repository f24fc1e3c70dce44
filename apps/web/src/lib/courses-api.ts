import type {
  CourseBody,
  CourseItem,
  CourseListResponse,
  CourseOverview,
  CourseResponse,
  CourseUpdateBody,
  CustomerProgressResponse,
  DoneCustomerBody,
  LessonBody,
  LessonColumnBody,
  LessonItem,
  LessonLink,
  LessonListResponse,
  LessonProgress,
  LessonResponse,
  LessonUpdateBody,
  PublicCourseListQuery,
} from "@parlons/contract";
import { queryOptions } from "@tanstack/react-query";
import { API_BASE, api, getAccessToken } from "./api";
import type { Lang } from "./locale-path";

/**
 * Courses and lessons calls (spec §7), shared by the course, lesson, dashboard and home
 * features: one query key per resource, so that a mutation anywhere refreshes every view.
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
  const path = scope === "staff" ? "/v1/courses" : `/v1/courses/${scope}`;
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

export function courseOverviewQuery(courseId: string | undefined, enabled = true) {
  return queryOptions({
    queryKey: courseKeys.overview(courseId ?? ""),
    queryFn: ({ signal }) =>
      api<{ data: { overview: CourseOverview } }>(`/v1/courses/customer/overview/${courseId}`, {
        signal,
        silent: true,
      }).then((r) => r.data.overview),
    enabled: Boolean(courseId) && enabled,
  });
}

// ---- staff: courses ----

/** What the course form sends (the server fills `position` and `slug` when absent). */
export type CourseInput = Omit<CourseBody, "position"> & Partial<Pick<CourseBody, "position">>;
export const createCourse = (body: CourseInput) =>
  api<CourseResponse>("/v1/courses", { method: "POST", body }).then((r) => r.data.course);
export const updateCourse = (id: string, body: CourseUpdateBody) =>
  api<CourseResponse>(`/v1/courses/${id}`, { method: "PUT", body }).then((r) => r.data.course);
export const togglePopular = (id: string, popular: boolean) =>
  api<CourseResponse>(`/v1/courses/popular-unpopular/${id}`, { method: "PUT", body: { popular } }).then(
    (r) => r.data.course,
  );
export const deleteCourse = (id: string, force = false) =>
  api<{ data: { id: string } }>(`/v1/courses/${id}`, { method: "DELETE", query: { force } });

// ---- staff: lessons ----

const lessonsBase = (courseId: string) => `/v1/courses/${courseId}/lessons`;
export const createLesson = (courseId: string, body: LessonBody) =>
  api<LessonResponse>(lessonsBase(courseId), { method: "POST", body }).then((r) => r.data.lesson);
export const updateLesson = (courseId: string, id: string, body: LessonUpdateBody) =>
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

export type SavedProgress = LessonProgress & { lesson_id: string };

/** `POST done-customer`: done / undo, resume position, play count. */
export function saveLessonProgress(
  courseId: string,
  body: DoneCustomerBody,
  options: { silent?: boolean } = {},
) {
  return api<{ data: { progress: SavedProgress } }>(`${lessonsBase(courseId)}/done-customer`, {
    method: "POST",
    body,
    silent: options.silent,
  }).then((r) => r.data.progress);
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

// ---- presentation helpers ----

export function courseTitle(course: Pick<CourseItem, "title_fr" | "title_en">, lang: Lang): string {
  return lang === "fr" ? course.title_fr || course.title_en : course.title_en || course.title_fr;
}
export function courseDescription(course: Pick<CourseItem, "description_fr" | "description_en">, lang: Lang) {
  return lang === "fr"
    ? course.description_fr || course.description_en
    : course.description_en || course.description_fr;
}
export function lessonTitle(lesson: Pick<LessonItem, "title_fr" | "title_en">, lang: Lang): string {
  return lang === "fr" ? lesson.title_fr || lesson.title_en : lesson.title_en || lesson.title_fr;
}
export function lessonText(lesson: Pick<LessonItem, "text_fr" | "text_en">, lang: Lang): string {
  return lang === "fr" ? lesson.text_fr || lesson.text_en : lesson.text_en || lesson.text_fr;
}
