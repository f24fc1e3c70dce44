import { type APIRequestContext, expect, type Page } from "@playwright/test";

/** Waits until the service worker is active and controls the page (after its precache). */
export async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(async () => {
    await navigator.serviceWorker.ready;
    return navigator.serviceWorker.controller !== null;
  });
}

/** The demo course's free lesson (it has lines with translations). */
async function demoLesson(request: APIRequestContext, token: string) {
  const course = (await (await request.get("/api/v1/courses/single/anglais-pour-debutants")).json()) as {
    data: { course: { id: string } };
  };
  const courseId = course.data.course.id;
  const res = await request.get(`/api/v1/courses/${courseId}/lessons`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const lessons = ((await res.json()) as { data: { lessons: { id: string; free: boolean }[] } }).data.lessons;
  return { courseId, lessonId: lessons.find((l) => l.free)?.id ?? "" };
}

/**
 * The demo lesson downloaded on this device and finished: its lines are in the learner's deck.
 * `prefix`: the interface's language in the path ("" French, "/en" English).
 */
export async function downloadAndFinish(page: Page, token: string, prefix = ""): Promise<void> {
  const { courseId, lessonId } = await demoLesson(page.request, token);
  await page.goto(`${prefix}/courses/${courseId}/lessons/${lessonId}`);
  await page.getByTestId("download-lesson").click();
  await expect(page.getByTestId("download-done")).toBeVisible();
  await page.getByTestId("mark-done").click();
  await expect(page.getByTestId("mark-done")).toHaveAttribute("data-done", "true");
}
