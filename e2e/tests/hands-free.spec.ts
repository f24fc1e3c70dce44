import { violations } from "../support/axe";
import { ownCourse } from "../support/course";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, signIn } from "../support/session";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
test.describe.configure({ timeout: 150_000 });

// two short lines of the lesson's tone: the session lasts about ten seconds
const LINES = [
  { start: 0, end: 0.6, text: "Hola.", translation_fr: "Bonjour.", translation_en: "Hello." },
  { start: 0.6, end: 1.2, text: "Gracias.", translation_fr: "Merci.", translation_en: "Thank you." },
];

test("on a phone with no speech voice, a hands-free recall session plays by itself, shows its prompts and sends the grades", async ({
  page,
  request,
}) => {
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

  // this browser has no speech synthesis: the prompts are shown as text
  await page.addInitScript(() => Object.defineProperty(window, "speechSynthesis", { value: undefined }));
  await signIn(page, learner);
  await page.goto("/practice/hands-free");
  await expect(page.getByTestId("hands-free-ready")).toContainText("2 phrases");
  // recall only (the learner's setting): each line from its French translation
  await page.getByRole("checkbox", { name: "Écho : écouter, répéter" }).uncheck();
  await expect(page.getByTestId("hands-free-ready")).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.getByTestId("hands-free-start").click();

  const current = page.getByTestId("hands-free-current");
  await expect(current).toHaveAttribute("data-index", "0");
  await expect(current).toHaveAttribute("data-kind", "recall");
  await expect(page.getByTestId("hands-free-prompt")).toHaveText("Bonjour.");
  await expect(page.getByTestId("hands-free-prompt")).toHaveAttribute("data-spoken", "false");
  expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe("Phrase 1 sur 2");
  expect(await violations(page)).toEqual([]);

  // nobody touches anything: the pause, the line, the gap, and the next item comes
  await expect(current).toHaveAttribute("data-index", "1", { timeout: 15_000 });
  await expect(page.getByTestId("hands-free-prompt")).toHaveText("Merci.");
  // one tap: this one was missed
  await page.getByTestId("hands-free-missed").click();
  await expect(page.getByTestId("hands-free-missed")).toHaveAttribute("aria-pressed", "true");

  await expect(page.getByTestId("hands-free-end")).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("hands-free-missed-1")).toBeChecked();
  await expect(page.getByTestId("hands-free-missed-0")).not.toBeChecked();
  expect(await violations(page)).toEqual([]);
  const graded = page.waitForResponse((r) => r.url().endsWith("/api/v1/practice/hands-free/grades"));
  await page.getByTestId("hands-free-send").click();
  const body = await (await graded).json();
  expect(body.data.graded.map((g: { card: { reps: number } }) => g.card.reps)).toEqual([1, 1]);
  await expect(page.getByTestId("hands-free-sent")).toContainText("Notes enregistrées pour 2 phrases");
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
});
