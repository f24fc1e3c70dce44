import {
  type CourseBody,
  type CourseItem,
  type CourseResponse,
  type CourseUpdateBody,
  pickField,
} from "@parlons/contract";
import { api } from "@/lib/api";
import type { Lang } from "@/lib/locale-path";

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

export function courseDescription(course: Pick<CourseItem, "description_fr" | "description_en">, lang: Lang) {
  return pickField(course, "description", lang);
}
