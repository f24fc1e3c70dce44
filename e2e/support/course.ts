import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type APIRequestContext, expect } from "@playwright/test";
import { ADMIN } from "./env";
import { apiToken } from "./session";

const MP3 = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../apps/api/test/fixtures/tone-10s.mp3",
);

export interface OwnCourse {
  courseId: string;
  title: string;
  /** In the order given, each with the 10-second tone as its audio. */
  lessonIds: string[];
}

/**
 * A course of the test's own, made through the API as staff: active, with one lesson per entry of
 * `lessons` (free or not). A spec that needs a course makes one, rather than reading the
 * catalogue's first page or `courses[0]`, which depend on what earlier specs created.
 */
export async function ownCourse(
  request: APIRequestContext,
  name: string,
  lessons: { title: string; free: boolean }[],
  /** The language taught (English unless said). */
  options: { language?: string } = {},
): Promise<OwnCourse> {
  const headers = { authorization: `Bearer ${await apiToken(request, ADMIN)}` };
  const title = `${name} ${Date.now().toString(36)}`;
  const course = await request.post("/api/v1/courses", {
    headers,
    data: {
      title_fr: title,
      title_en: title,
      target_language: options.language ?? "en",
      level: "A1",
      active: true,
    },
  });
  expect(course.status(), await course.text()).toBe(201);
  const courseId = ((await course.json()) as { data: { course: { id: string } } }).data.course.id;
  const upload = await request.post("/api/v1/medias/file/upload", {
    headers,
    multipart: {
      type: "audio",
      file: { name: "tone.mp3", mimeType: "audio/mpeg", buffer: readFileSync(MP3) },
    },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  const audio = ((await upload.json()) as { data: { file_path: string } }).data.file_path;
  const lessonIds: string[] = [];
  for (const lesson of lessons) {
    const res = await request.post(`/api/v1/courses/${courseId}/lessons`, {
      headers,
      data: { title_fr: lesson.title, title_en: lesson.title, audio, free: lesson.free },
    });
    expect(res.status(), await res.text()).toBe(201);
    lessonIds.push(((await res.json()) as { data: { lesson: { id: string } } }).data.lesson.id);
  }
  return { courseId, title, lessonIds };
}
