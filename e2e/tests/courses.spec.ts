import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { ownCourse } from "../support/course";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { linkFromMail } from "../support/mail";
import { apiToken, signIn } from "../support/session";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const MP3 = path.join(root, "apps/api/test/fixtures/tone-10s.mp3");
const DEMO_SLUG = "anglais-pour-debutants";
const SHOTS = process.env.E2E_SHOTS; // directory for screenshots when set

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

function toast(page: Page, text: string) {
  return page.locator(".ant-message").getByText(text, { exact: true });
}

/** Current state of the lesson's <audio>. */
function audioState(page: Page) {
  return page.locator("[data-testid=player] audio").evaluate((el: HTMLAudioElement) => ({
    currentTime: el.currentTime,
    paused: el.paused,
    playbackRate: el.playbackRate,
    preservesPitch: el.preservesPitch,
  }));
}

test("an admin creates a course (a draft until published) and a lesson from an MP3 uploaded in the browser", async ({
  page,
  request,
}) => {
  await signIn(page, ADMIN);

  await page.goto("/courses/create");
  const form = page.getByTestId("course-form");
  await expect(form).toBeVisible();
  const title = `Espagnol e2e ${Date.now()}`;
  await form.getByLabel("Titre (français)").fill(title);
  await form.getByLabel("Description (français)").fill("Un cours créé par le test de bout en bout.");
  // the texts of each language are in their own tab, reached from the keyboard too
  await form.getByRole("tab", { name: "Français" }).focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Enter");
  await expect(form.getByRole("tab", { name: "Anglais" })).toHaveAttribute("aria-selected", "true");
  await form.getByLabel("Titre (anglais)").fill(`Spanish e2e ${Date.now()}`);
  await form.getByRole("tab", { name: "Espagnol" }).click();
  await form.getByLabel("Titre (espagnol)").fill(`Español e2e ${title.slice(-6)}`);
  // a new course starts as a draft
  await expect(page.getByTestId("course-active")).not.toBeChecked();
  await expect(form).toContainText("seule l'équipe le voit");
  await page.getByTestId("course-submit").click();
  await expect(toast(page, "Cours créé")).toBeVisible();
  await page.waitForURL(/\/courses\/[0-9a-f-]{36}\/lessons$/);
  const courseId = /\/courses\/([0-9a-f-]{36})\/lessons$/.exec(page.url())?.[1] as string;
  // nobody outside the staff sees a draft
  expect((await request.get(`/api/v1/courses/single/${courseId}`)).status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(title);
  // staff read every language's text back (the Spanish one from its tab)
  const saved = await request.get(`/api/v1/courses/single/${courseId}`, {
    headers: { authorization: `Bearer ${await apiToken(request, ADMIN)}` },
  });
  expect(((await saved.json()) as { data: { course: { title_es: string } } }).data.course.title_es).toBe(
    `Español e2e ${title.slice(-6)}`,
  );

  await page.getByTestId("lesson-add").click();
  const lessonForm = page.getByTestId("lesson-form");
  await expect(lessonForm).toBeVisible();
  await lessonForm.getByLabel("Titre (français)").fill("Premier son");
  await lessonForm.getByRole("tab", { name: "Anglais" }).click();
  await lessonForm.getByLabel("Titre (anglais)").fill("First sound");

  const upload = page.getByTestId("lesson-upload");
  const send = page.getByTestId("lesson-upload-send");
  await expect(send).toBeDisabled(); // until a file is chosen
  await upload.locator("input[type=file]").setInputFiles(MP3);
  await expect(send).toBeEnabled();
  await send.click();
  await expect(toast(page, "Fichier tone-10s.mp3 envoyé avec succès")).toBeVisible();
  await expect(page.getByTestId("lesson-duration")).toHaveText("Durée : 0:10");
  await lessonForm.getByRole("switch", { name: /Gratuite/ }).click();
  await shot(page, "admin-lesson-form");
  await page.getByTestId("lesson-submit").click();
  await expect(toast(page, "Leçon créée")).toBeVisible();

  // the lesson is listed with its duration, and the course page shows it; the toasts leave first:
  // stacked at the top they can cover the drawer's close button, and the pointer resting on a toast
  // keeps it open
  await expect(page.locator(".ant-message-notice")).toHaveCount(0, { timeout: 15_000 });
  await page.getByRole("button", { name: "Fermer" }).click();
  const row = page.getByTestId("lesson-row").filter({ hasText: "Premier son" });
  await expect(row).toContainText("10 s");
  await shot(page, "admin-lessons");
  // a new lesson is a draft: published from the list, it lets the course go live
  await expect(row.getByTestId("lesson-draft")).toHaveText("Brouillon");
  await row.getByTestId("lesson-publish").click();
  await expect(row.getByTestId("lesson-draft")).toHaveCount(0);

  // published from its form, the course is there for everyone
  await page.goto(`/courses/edit?id=${courseId}`);
  await page.getByTestId("course-active").click();
  await expect(page.getByTestId("course-active")).toBeChecked();
  await page.getByTestId("course-submit").click();
  await expect(toast(page, "Cours enregistré")).toBeVisible();
  await expect.poll(async () => (await request.get(`/api/v1/courses/single/${courseId}`)).status()).toBe(200);
});

test("a free learner plays the free lesson, meets the lock, practises, resumes and progresses", async ({
  page,
  request,
}) => {
  test.slow(); // a whole visit: sign-up, the lock, speeds, keyboard, resume (47 s on a loaded machine)
  const email = `learner-${Date.now()}@e2e.test`;
  const password = "Learner-pass!1";
  const signup = await request.post("/api/v1/user/self-register", {
    data: { email, password, role: "CUSTOMER", course_id: null, speak: "FR" },
  });
  expect(signup.ok()).toBe(true);
  const link = await linkFromMail(email, /https?:\/\/[^\s"<>]+\/activate\/[\w-]+/);
  await page.goto(new URL(link).pathname);
  await expect(page.getByTestId("activate-success")).toBeVisible();
  await signIn(page, { email, password });

  // the dashboard has no course in progress yet
  await expect(page.getByTestId("learner-progress")).toBeVisible();
  await expect(page.getByTestId("progress-bar")).toHaveCount(0);

  // course page: lessons 1 to 4 open, lesson 5 locked, upgrade call to action
  await page.goto(`/courses/${DEMO_SLUG}`);
  const rows = page.getByTestId("lesson-row");
  await expect(rows).toHaveCount(6);
  await expect(rows.nth(0)).toHaveAttribute("data-locked", "false");
  await expect(rows.nth(3)).toHaveAttribute("data-locked", "false");
  await expect(rows.nth(4)).toHaveAttribute("data-locked", "true");
  await expect(page.getByTestId("upgrade-cta")).toBeVisible();
  await expect(page.getByTestId("upgrade-cta").getByRole("link")).toHaveAttribute("href", "/pricing");
  await expect(page).toHaveTitle(/Anglais pour débutants · Parlons/);
  await shot(page, "learner-course");

  // what the page adds after its lessons (the offers above the list, the download button) is in,
  // so the row does not move under the click
  await expect(page.getByTestId("course-offers")).toBeVisible();
  await expect(page.getByTestId("download-course")).toBeVisible();
  await rows.nth(0).getByRole("link").click();
  await expect(page.getByTestId("player")).toBeVisible();
  await expect(page.getByTestId("transcript")).toContainText("My name is Anna.");

  // play: the audio element really advances
  await page.getByTestId("player-play").click();
  await expect.poll(async () => (await audioState(page)).currentTime, { timeout: 15_000 }).toBeGreaterThan(1);

  // speed 1.5× keeps the pitch
  await page.getByTestId("player-speed").click();
  await page.locator(".ant-select-item-option", { hasText: "1,5×" }).click();
  await expect.poll(async () => (await audioState(page)).playbackRate).toBe(1.5);
  expect((await audioState(page)).preservesPitch).toBe(true);
  // keyboard (focus out of the speed field first: shortcuts stay off in fields): ">" one step faster
  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press(">");
  await expect.poll(async () => (await audioState(page)).playbackRate).toBe(1.75);
  await expect.poll(async () => (await audioState(page)).currentTime).toBeGreaterThan(3);
  // back to 1× (the speed is kept for the next lesson): at 1.75× a loaded machine's next steps can
  // outlast what is left of the clip, and a lesson heard to its end resumes from the start
  await page.getByTestId("player-speed").click();
  await page.locator(".ant-select-item-option", { hasText: /^1×$/ }).click();
  await expect.poll(async () => (await audioState(page)).playbackRate).toBe(1);

  // a transcript line seeks there and becomes the highlighted one (paused meanwhile: the line
  // lasts 0.7 s and its pause 2 s, less than a loaded machine may take between two checks)
  const pausing = page.waitForResponse(
    (r) => r.url().includes("/done-customer") && r.request().method() === "POST" && r.ok(),
  );
  await page.getByTestId("player-play").click();
  await pausing;
  await page
    .getByTestId("transcript")
    .getByRole("button", { name: /How are you\?/ })
    .click();
  await expect.poll(async () => (await audioState(page)).currentTime).toBeGreaterThan(24);
  await expect(page.getByTestId("transcript").locator("[aria-current=true]")).toContainText("How are you?");
  // Media Session metadata for the lock screen and headset buttons
  expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe("Les salutations");

  // play on, then pause: the position is saved on the server
  await page.getByTestId("player-play").click();
  await expect.poll(async () => (await audioState(page)).paused).toBe(false);
  const saved = page.waitForResponse(
    (r) => r.url().includes("/done-customer") && r.request().method() === "POST" && r.ok(),
  );
  await page.getByTestId("player-play").click();
  await saved;
  const pausedAt = (await audioState(page)).currentTime;
  expect(pausedAt).toBeGreaterThan(24);
  await shot(page, "learner-player");

  // reload: the player resumes there
  await page.reload();
  await expect(page.getByTestId("player")).toBeVisible();
  await expect.poll(async () => (await audioState(page)).currentTime).toBeGreaterThan(pausedAt - 1);
  expect((await audioState(page)).currentTime).toBeLessThan(pausedAt + 1);
  await expect(page.getByTestId("player-time")).not.toHaveText(/^0:00 /);

  // the course is now in progress at 0 %; marking the lesson done moves it to 17 % (1 of 6)
  await page.goto("/dashboard");
  await expect(page.getByTestId("progress-bar")).toHaveAttribute("data-percent", "0");
  await page.getByTestId("continue-lesson").click();
  await expect(page.getByTestId("mark-done")).toHaveAttribute("data-done", "false");
  await page.getByTestId("mark-done").click();
  await expect(page.getByTestId("mark-done")).toHaveAttribute("data-done", "true");
  await page.goto("/dashboard");
  await expect(page.getByTestId("progress-bar")).toHaveAttribute("data-percent", "17");
  await expect(page.getByTestId("done-this-week")).toContainText("1");
  await shot(page, "learner-dashboard");
});

test("the catalogue and the home page list the courses, in French and English", async ({ page }) => {
  // a course of this test's own, the newest: first in the lists whatever other specs made
  const { title } = await ownCourse(page.request, "Catalogue", [{ title: "Leçon", free: true }]);
  await page.goto("/courses");
  await expect(page.getByTestId("course-card").first()).toBeVisible();
  await expect(page).toHaveTitle("Cours · Parlons");
  await page.goto("/en/courses/more");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("All courses");
  await expect(page.getByTestId("course-card").filter({ hasText: title })).toBeVisible();
  await shot(page, "catalogue-en");
});
