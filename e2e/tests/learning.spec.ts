import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { APIRequestContext, Page } from "@playwright/test";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, signIn } from "../support/session";

const DEMO_SLUG = "anglais-pour-debutants";
const MP3 = path.join(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../.."),
  "apps/api/test/fixtures/tone-10s.mp3",
);

async function firstDemoLesson(request: APIRequestContext, token: string) {
  const course = await request.get(`/api/v1/courses/single/${DEMO_SLUG}`);
  const courseId = ((await course.json()) as { data: { course: { id: string } } }).data.course.id;
  const list = await request.get(`/api/v1/courses/${courseId}/lessons`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const lessons = ((await list.json()) as { data: { lessons: { id: string }[] } }).data.lessons;
  return { courseId, lessonId: lessons[0]?.id as string };
}

// each test signs up, signs in and walks several pages: more than the default on a loaded machine
test.describe.configure({ timeout: 120_000 });

function reviewAudio(page: Page) {
  return page.getByTestId("review-audio").evaluate((el: HTMLAudioElement) => ({
    currentTime: el.currentTime,
    paused: el.paused,
  }));
}

test("a learner taps a line to reveal its translation, shows them all, and listens with the text hidden", async ({
  page,
  request,
}) => {
  const learner = await createLearner(request);
  await signIn(page, learner);
  await page.goto(`/courses/${DEMO_SLUG}`);
  await page.getByTestId("lesson-row").nth(0).getByRole("link").click();
  const transcript = page.getByTestId("transcript");
  await expect(transcript).toContainText("My name is Anna.");
  await expect(page.getByTestId("transcript-translation")).toHaveCount(0);

  // one tap: that line's translation, in the interface's language (French here)
  const anna = page.getByTestId("transcript-line").filter({ hasText: "My name is Anna." });
  await anna.getByRole("button", { name: /My name is Anna\./ }).click();
  await expect(anna.getByTestId("transcript-translation")).toHaveText("Je m'appelle Anna.");
  await expect(page.getByTestId("transcript-translation")).toHaveCount(1);
  // a second tap hides it again
  await anna.getByRole("button", { name: /My name is Anna\./ }).click();
  await expect(page.getByTestId("transcript-translation")).toHaveCount(0);

  // "show translations": every line
  await page.getByTestId("show-translations").click();
  await expect(page.getByTestId("transcript-translation")).toHaveCount(20);
  await expect(transcript).toContainText("Au revoir !");

  // "hide the text": listening only, the sentences are gone until a line is tapped
  await page.getByTestId("show-translations").click();
  await page.getByTestId("hide-text").click();
  await expect(transcript).not.toContainText("Hello.");
  await expect(transcript).not.toContainText("How are you?");
  const howAreYou = page.getByTestId("transcript-line").nth(7);
  await howAreYou.locator(".transcript__line").click();
  await expect(howAreYou).toContainText("How are you?");
  await expect(howAreYou.getByTestId("transcript-translation")).toHaveText("Comment ça va ?");

  // the English interface shows the English side: in this English course, the line itself
  await page.goto(page.url().replace(/(:\d+)\//, "$1/en/"));
  const line = page.getByTestId("transcript-line").filter({ hasText: "Goodbye!" });
  await line.getByRole("button", { name: /Goodbye!/ }).click();
  await expect(line.getByTestId("transcript-translation")).toHaveText("Goodbye!");
});

test("a full review session by keyboard: each line plays its segment, Space reveals, 1–4 grade", async ({
  page,
  request,
}) => {
  const learner = await createLearner(request);
  const token = await apiToken(request, learner);
  const { courseId, lessonId } = await firstDemoLesson(request, token);
  const done = await request.post(`/api/v1/courses/${courseId}/lessons/done-customer`, {
    headers: { authorization: `Bearer ${token}` },
    data: { lesson_id: lessonId, done: true },
  });
  expect(done.ok(), await done.text()).toBe(true);

  await signIn(page, learner);
  // the demo's first lesson has 20 lines: as many as a day's new cards
  await expect(page.getByTestId("review-new-count")).toContainText("20");
  await page.getByTestId("review-start").click();
  await expect(page).toHaveURL(/\/review$/);
  await expect(page.getByTestId("review-new")).toContainText("20 nouvelles");

  // the first card plays "Hello." (0.83 s → 1.41 s, as the aligner timed it) and stops at its end
  await expect(page.getByTestId("review-current")).toBeVisible();
  await expect
    .poll(async () => (await reviewAudio(page)).currentTime, { timeout: 15_000 })
    .toBeGreaterThan(0.6);
  await expect.poll(async () => (await reviewAudio(page)).paused, { timeout: 15_000 }).toBe(true);
  const stopped = (await reviewAudio(page)).currentTime;
  expect(stopped).toBeGreaterThanOrEqual(1.3);
  expect(stopped).toBeLessThan(1.9);

  const grades: string[] = [];
  page.on("response", (r) => {
    if (r.url().endsWith("/api/v1/review/grade") && r.ok()) grades.push(r.url());
  });
  // Hello. → Again (comes back at the end), then Hard, Good, Easy, Good… and Hello. again → Good
  const keys = ["1", "2", "3", "4", ...Array<string>(16).fill("3"), "3"];
  for (const [i, key] of keys.entries()) {
    await expect(page.getByTestId("review-answer")).toHaveCount(0);
    await page.keyboard.press("Space");
    await expect(page.getByTestId("review-answer")).toBeVisible();
    if (i === 0 || i === keys.length - 1)
      await expect(page.getByTestId("review-answer")).toContainText("Bonjour.");
    // each grade button says when the card comes back
    if (i === 0) await expect(page.getByTestId("interval-easy")).toHaveText(/\d+\s*j/);
    await page.keyboard.press(key);
  }
  // the session ends on its summary: items, accuracy (Good and Easy: 19 of 21), next card, streak
  const summary = page.getByTestId("review-summary");
  await expect(summary).toContainText("21 cartes révisées");
  await expect(page.getByTestId("summary-items")).toContainText("21");
  await expect(page.getByTestId("summary-accuracy")).toContainText("90");
  await expect(page.getByTestId("summary-next")).not.toContainText("…");
  // the lesson finished today made a study day: the streak has begun
  await expect(page.getByTestId("summary-streak")).toContainText("1 jour");
  await expect(page.getByTestId("review-finished")).toHaveCount(0);
  await expect.poll(() => grades.length).toBe(21);

  // the server counted every grade once: nothing new or due is left, 21 reviews today
  const stats = await request.get("/api/v1/review/stats", { headers: { authorization: `Bearer ${token}` } });
  expect((await stats.json()).data.stats).toMatchObject({ new: 0, due: 0, reviewed_today: 21, total: 20 });
  await page.goto("/dashboard");
  await expect(page.getByTestId("review-new-count")).toContainText("0");
});

test("staff edit a lesson's lines: import WebVTT, translate, retime, split, merge, remove, save, export", async ({
  page,
  request,
}) => {
  const token = await apiToken(request, ADMIN);
  const auth = { authorization: `Bearer ${token}` };
  const course = await request.post("/api/v1/courses", {
    headers: auth,
    data: {
      title_fr: `Lignes ${Date.now()}`,
      title_en: "Lines",
      target_language: "es",
      level: "A1",
      active: true,
    },
  });
  const courseId = (await course.json()).data.course.id as string;
  const upload = await request.post("/api/v1/medias/file/upload", {
    headers: auth,
    multipart: {
      type: "audio",
      file: { name: "tone.mp3", mimeType: "audio/mpeg", buffer: readFileSync(MP3) },
    },
  });
  const audio = (await upload.json()).data as { file_path: string };
  const created = await request.post(`/api/v1/courses/${courseId}/lessons`, {
    headers: auth,
    data: {
      title_fr: "Saluer",
      title_en: "Greeting",
      audio: audio.file_path,
      free: true,
      transcript: "[00:00] Hola.",
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const lessonId = (await created.json()).data.lesson.id as string;

  await signIn(page, ADMIN);
  await page.goto(`/courses/${courseId}/lessons`);
  await page.getByRole("button", { name: "Modifier « Saluer »" }).click();
  const editor = page.getByTestId("cue-editor");
  await expect(editor.getByTestId("cue-row")).toHaveCount(1);

  // a WebVTT file replaces the lines (the French translation rides in a <lang fr> line)
  const vtt = [
    "WEBVTT",
    "",
    "00:00.000 --> 00:02.000",
    "Hola.",
    "<lang fr>Bonjour.</lang>",
    "",
    "00:02.000 --> 00:06.000",
    "Buenos días a todos.",
    "",
    "00:06.000 --> 00:08.000",
    "Adiós.",
  ].join("\n");
  await editor
    .getByTestId("cue-import")
    .setInputFiles({ name: "lines.vtt", mimeType: "text/vtt", buffer: Buffer.from(vtt) });
  await page.getByRole("dialog").getByRole("button", { name: "OK" }).click();
  const rows = editor.getByTestId("cue-row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0).getByTestId("cue-fr")).toHaveValue("Bonjour.");

  // translate, split at the audio's time, merge back, retime, remove
  await rows.nth(1).getByTestId("cue-en").fill("Good morning, everyone.");
  await editor.locator("audio.cue-editor__audio").evaluate((el: HTMLAudioElement) => {
    el.currentTime = 4;
  });
  await rows.nth(1).getByTestId("cue-split").click();
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1).getByTestId("cue-text")).toHaveValue("Buenos días");
  await expect(rows.nth(2).getByTestId("cue-text")).toHaveValue("a todos.");
  await rows.nth(1).getByTestId("cue-merge").click();
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(1).getByTestId("cue-text")).toHaveValue("Buenos días a todos.");
  await editor.locator("audio.cue-editor__audio").evaluate((el: HTMLAudioElement) => {
    el.currentTime = 2.5;
  });
  await rows.nth(1).getByTestId("cue-set-start").click();
  await expect(rows.nth(1).getByRole("spinbutton").first()).toHaveValue("2.50");
  await rows.nth(2).getByTestId("cue-remove").click();
  await expect(rows).toHaveCount(2);
  await editor.getByTestId("cue-save").click();
  await expect(page.locator(".ant-message").getByText("Phrases enregistrées")).toBeVisible();

  const saved = await request.get(`/api/v1/courses/${courseId}/lessons/${lessonId}/cues`, { headers: auth });
  expect((await saved.json()).data.cues).toMatchObject([
    { start: 0, end: 2.5, text: "Hola.", translation_fr: "Bonjour.", translation_en: "" },
    { start: 2.5, end: 6, text: "Buenos días a todos.", translation_en: "Good morning, everyone." },
  ]);

  // export: the same lines as WebVTT
  const download = page.waitForEvent("download");
  await editor.getByRole("button", { name: "Exporter en WebVTT" }).click();
  const file = await (await download).path();
  const text = readFileSync(file, "utf8");
  expect(text).toContain(
    "00:00:02.500 --> 00:00:06.000\nBuenos días a todos.\n<lang en>Good morning, everyone.</lang>",
  );
});

test("a course at its own pace: the next lesson says when it opens, and opens once the previous is done", async ({
  page,
  request,
}) => {
  const auth = { authorization: `Bearer ${await apiToken(request, ADMIN)}` };
  const course = await request.post("/api/v1/courses", {
    headers: auth,
    data: {
      title_fr: "Au pas",
      title_en: "Step by step",
      target_language: "it",
      level: "A1",
      active: true,
      drip_mode: "days",
      drip_days: 3,
    },
  });
  expect(course.status(), await course.text()).toBe(201);
  const courseId = (await course.json()).data.course.id as string;
  const upload = await request.post("/api/v1/medias/file/upload", {
    headers: auth,
    multipart: {
      type: "audio",
      file: { name: "tone.mp3", mimeType: "audio/mpeg", buffer: readFileSync(MP3) },
    },
  });
  const audio = ((await upload.json()).data as { file_path: string }).file_path;
  const ids: string[] = [];
  for (const title of ["Ciao", "Grazie"]) {
    const res = await request.post(`/api/v1/courses/${courseId}/lessons`, {
      headers: auth,
      data: { title_fr: title, title_en: title, audio, free: true },
    });
    expect(res.status()).toBe(201);
    ids.push((await res.json()).data.lesson.id as string);
  }

  const learner = await createLearner(request, "pace");
  await signIn(page, learner);
  // not started: the second lesson opens three days after the learner starts
  await page.goto(`/courses/${courseId}`);
  const rows = page.getByTestId("lesson-row");
  await expect(rows.nth(1)).toHaveAttribute("data-locked", "true");
  await expect(rows.nth(1).getByTestId("lesson-pace")).toHaveText(
    "S’ouvre 3 jours après votre début dans ce cours, puis à son rythme",
  );
  // the first listen starts the course: now the date shows, on the lesson page too
  const token = await apiToken(request, learner);
  const started = await request.post(`/api/v1/courses/${courseId}/lessons/done-customer`, {
    headers: { authorization: `Bearer ${token}` },
    data: { lesson_id: ids[0], done: false, last_position: 2 },
  });
  expect(started.status()).toBe(200);
  const opens = new Intl.DateTimeFormat("fr-FR", { dateStyle: "long" }).format(
    new Date(Date.now() + 3 * 86_400_000),
  );
  await page.goto(`/courses/${courseId}/lessons/${ids[1]}`);
  // the lesson page loads the app's larger chunks: give a loaded machine time
  await expect(page.getByRole("heading", { level: 1, name: "Grazie" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("lesson-pace-notice")).toHaveText(`S’ouvre le ${opens}`);
  await expect(page.getByTestId("player")).toHaveCount(0);
  await page.goto(`/en/courses/${courseId}`);
  await expect(page.getByTestId("lesson-row").nth(1).getByTestId("lesson-pace")).toContainText("Opens on");
});
