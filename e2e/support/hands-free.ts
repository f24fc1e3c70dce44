import { type APIRequestContext, expect } from "@playwright/test";
import { ownCourse } from "./course";
import { ADMIN } from "./env";
import { apiToken, createLearner } from "./session";

// two short lines of the lesson's tone: the session lasts about ten seconds
const LINES = [
  { start: 0, end: 0.6, text: "Hola.", translation_fr: "Bonjour.", translation_en: "Hello." },
  { start: 0.6, end: 1.2, text: "Gracias.", translation_fr: "Merci.", translation_en: "Thank you." },
];

/** A course of two short lines (Spanish) whose lesson the new learner finished: both in their deck. */
export async function learnerWithLines(request: APIRequestContext) {
  const course = await ownCourse(request, "Mains libres", [{ title: "Uno", free: true }], { language: "es" });
  const [lessonId] = course.lessonIds;
  const admin = { authorization: `Bearer ${await apiToken(request, ADMIN)}` };
  const cues = await request.put(`/api/v1/courses/${course.courseId}/lessons/${lessonId}/cues`, {
    headers: admin,
    data: { cues: LINES },
  });
  expect(cues.ok(), await cues.text()).toBe(true);
  const learner = await createLearner(request, "hands-free");
  const auth = { authorization: `Bearer ${await apiToken(request, learner)}` };
  const done = await request.post(`/api/v1/courses/${course.courseId}/lessons/done-customer`, {
    headers: auth,
    data: { lesson_id: lessonId, done: true },
  });
  expect(done.ok(), await done.text()).toBe(true);
  return { learner };
}
