import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { APIRequestContext } from "@playwright/test";
import { violations } from "../support/axe";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, signIn } from "../support/session";

// speech synthesized for the aligner's tests: four French lines with pauses between them
const clips = path.join(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../.."),
  "packages/aligner/test/fixtures",
);
const SPEECH = readFileSync(path.join(clips, "fr-pauses.mp3"));
const SCRIPT = readFileSync(path.join(clips, "fr-pauses.txt"), "utf8");

// an alignment takes seconds, longer on a loaded machine
test.describe.configure({ timeout: 300_000 });

/** A new course with one lesson whose audio is the synthesized speech; the admin's headers. */
async function lessonWithSpeech(request: APIRequestContext, course: string, titles: [string, string]) {
  const token = await apiToken(request, ADMIN);
  const auth = { authorization: `Bearer ${token}` };
  const created = await request.post("/api/v1/courses", {
    headers: auth,
    data: {
      title_fr: `${course} ${Date.now()}`,
      title_en: course,
      target_language: "fr",
      level: "A1",
      active: true,
    },
  });
  const courseId = (await created.json()).data.course.id as string;
  const upload = await request.post("/api/v1/medias/file/upload", {
    headers: auth,
    multipart: { type: "audio", file: { name: "claire.mp3", mimeType: "audio/mpeg", buffer: SPEECH } },
  });
  const audio = (await upload.json()).data as { file_path: string };
  const lesson = await request.post(`/api/v1/courses/${courseId}/lessons`, {
    headers: auth,
    data: { title_fr: titles[0], title_en: titles[1], audio: audio.file_path, free: true },
  });
  expect(lesson.status(), await lesson.text()).toBe(201);
  return { auth, courseId, lessonId: (await lesson.json()).data.lesson.id as string };
}

test("staff align a lesson's script to its audio, then adjust a line on the waveform by drag and keyboard", async ({
  page,
  request,
}) => {
  const { auth, courseId, lessonId } = await lessonWithSpeech(request, "Studio", [
    "Présentations",
    "Introductions",
  ]);

  await signIn(page, ADMIN);
  await page.goto(`/courses/${courseId}/lessons`);
  await page.getByRole("button", { name: "Modifier « Présentations »" }).click();
  const panel = page.getByTestId("align-panel");
  await expect(panel.getByTestId("align-submit")).toBeDisabled();
  await panel.getByLabel("Script").fill(SCRIPT);
  await panel.getByRole("radio", { name: "Une par ligne", exact: true }).check();
  await panel.getByTestId("align-submit").click();

  // done: the mode that ran, and the lines in the editor with the waveform
  await expect(panel.getByTestId("align-done")).toBeVisible({ timeout: 180_000 });
  await expect(panel.getByTestId("align-done")).toContainText("4 lignes alignées");
  await expect(panel.getByTestId("align-mode")).toHaveText(/Analyse de l'audio|Voix de référence/);
  const editor = page.getByTestId("cue-editor");
  const rows = editor.getByTestId("cue-row");
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(1).getByTestId("cue-text")).toHaveValue("Oui.");
  const wave = editor.getByTestId("waveform");
  await expect(wave).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  expect(await violations(page)).toEqual([]);

  const startOf = (i: number) => rows.nth(i).getByRole("spinbutton").first();
  const endOf = (i: number) => rows.nth(i).getByRole("spinbutton").nth(1);
  const number = async (field: ReturnType<typeof startOf>) => Number(await field.inputValue());

  // keyboard: line 2, its start 50 ms later, its end 50 ms earlier
  const start2 = await number(startOf(1));
  const end2 = await number(endOf(1));
  await wave.focus();
  await page.keyboard.press("ArrowDown");
  await expect(editor.getByTestId("waveform-status")).toContainText("Ligne 2");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Shift+ArrowLeft");
  await expect.poll(() => number(startOf(1))).toBeCloseTo(start2 + 0.05, 2);
  await expect.poll(() => number(endOf(1))).toBeCloseTo(end2 - 0.05, 2);

  // drag: the end of line 3 pulled left on the waveform
  const end3 = await number(endOf(2));
  const handle = wave.locator('[part~="region-handle-right"]').nth(2);
  const box = await handle.boundingBox();
  if (!box) throw new Error("no region handle");
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 - 15, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect.poll(() => number(endOf(2))).toBeLessThan(end3 - 0.05);

  await editor.getByTestId("cue-save").click();
  await expect(page.locator(".ant-message").getByText("Phrases enregistrées")).toBeVisible();
  const saved = await request.get(`/api/v1/courses/${courseId}/lessons/${lessonId}/cues`, { headers: auth });
  const cues = (await saved.json()).data.cues as { start: number; end: number; text: string }[];
  expect(cues.map((c) => c.text)).toEqual(SCRIPT.trim().split("\n"));
  expect(cues[1]?.start).toBeCloseTo(start2 + 0.05, 2);
  expect(cues[2]?.end).toBeLessThan(end3 - 0.05);
});

test("the align panel says what is missing: no audio, an empty script", async ({ page, request }) => {
  const token = await apiToken(request, ADMIN);
  const auth = { authorization: `Bearer ${token}` };
  const course = await request.post("/api/v1/courses", {
    headers: auth,
    data: {
      title_fr: `Sans audio ${Date.now()}`,
      title_en: "No audio",
      target_language: "fr",
      level: "A1",
      active: true,
    },
  });
  const courseId = (await course.json()).data.course.id as string;
  await request.post(`/api/v1/courses/${courseId}/lessons`, {
    headers: auth,
    data: { title_fr: "Muette", title_en: "Silent", audio: null, free: true },
  });
  await signIn(page, ADMIN);
  await page.goto(`/courses/${courseId}/lessons`);
  await page.getByRole("button", { name: "Modifier « Muette »" }).click();
  await expect(page.getByTestId("align-no-audio")).toContainText("Envoyez d'abord l'audio");
});

test("audio without a script: staff propose lines at the pauses, paste the text, and learners hear the segments at once", async ({
  page,
  request,
}) => {
  const { auth, courseId, lessonId } = await lessonWithSpeech(request, "Sans script", [
    "Écoute",
    "Listening",
  ]);
  // a line typed earlier: proposing lines asks before replacing it
  await request.put(`/api/v1/courses/${courseId}/lessons/${lessonId}/cues`, {
    headers: auth,
    data: { cues: [{ start: 0, end: 1, text: "Une ancienne phrase." }] },
  });

  await signIn(page, ADMIN);
  await page.goto(`/courses/${courseId}/lessons`);
  await page.getByRole("button", { name: "Modifier « Écoute »" }).click();
  const panel = page.getByTestId("align-panel");
  await panel.getByRole("button", { name: "Proposer des phrases aux pauses" }).click();
  const confirm = page.getByRole("dialog", { name: "Remplacer les phrases de la leçon ?" });
  await expect(confirm).toContainText("La leçon a 1 phrase");
  await confirm.getByRole("button", { name: "Remplacer" }).click();
  // four lines said, the one-word "Oui." (0.2 s between clear pauses) a segment of its own
  await expect(panel.getByTestId("propose-done")).toContainText("4 segments proposés", { timeout: 180_000 });

  // the segments are in the editor, without text; a pasted text of three lines fills them in order
  const editor = page.getByTestId("cue-editor");
  const rows = editor.getByTestId("cue-row");
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0).getByTestId("cue-text")).toHaveValue("");
  await rows
    .nth(0)
    .getByTestId("cue-text")
    .evaluate((input, text) => {
      const data = new DataTransfer();
      data.setData("text/plain", text);
      input.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, "Bonjour, je m'appelle Claire.\nOui.\n");
  await expect(rows.nth(0).getByTestId("cue-text")).toHaveValue("Bonjour, je m'appelle Claire.");
  await expect(rows.nth(1).getByTestId("cue-text")).toHaveValue("Oui.");
  await expect(rows.nth(2).getByTestId("cue-text")).toHaveValue("");
  expect(await violations(page)).toEqual([]);
  await editor.getByTestId("cue-save").click();
  await expect(page.locator(".ant-message").getByText("Phrases enregistrées")).toBeVisible();

  // the lesson's player: the typed lines, the segment still without text named by its number
  await page.goto(`/courses/${courseId}/lessons/${lessonId}`);
  const lines = page.getByTestId("transcript-line");
  await expect(lines).toHaveCount(4);
  await expect(lines.nth(0)).toContainText("Bonjour, je m'appelle Claire.");
  await expect(lines.nth(2).getByTestId("transcript-segment")).toHaveText("Segment 3");
  await expect(page.getByTestId("player-repeat")).toBeVisible();
});

test("staff split a line at the waveform's playhead and merge it back", async ({ page, request }) => {
  const { auth, courseId, lessonId } = await lessonWithSpeech(request, "Ciseaux", ["Ciseaux", "Scissors"]);
  await request.put(`/api/v1/courses/${courseId}/lessons/${lessonId}/cues`, {
    headers: auth,
    data: {
      cues: [
        { start: 1, end: 4, text: "Bonjour, je m'appelle Claire. Oui." },
        { start: 4, end: 8, text: "J'habite à Lyon, avec ma sœur." },
      ],
    },
  });
  await signIn(page, ADMIN);
  await page.goto(`/courses/${courseId}/lessons`);
  await page.getByRole("button", { name: "Modifier « Ciseaux »" }).click();
  const editor = page.getByTestId("cue-editor");
  const rows = editor.getByTestId("cue-row");
  const wave = editor.getByTestId("waveform");
  await expect(wave).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  const endOf = (i: number) => rows.nth(i).getByRole("spinbutton").nth(1);

  // a click in the middle of line 1 puts the playhead there; the line is cut at it
  await wave.scrollIntoViewIfNeeded();
  const box = await wave.locator('[part~="region"]').first().boundingBox();
  if (!box) throw new Error("no region");
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await editor.getByTestId("waveform-split").click();
  await expect(rows).toHaveCount(3);
  const cut = Number(await endOf(0).inputValue());
  expect(cut).toBeGreaterThan(2);
  expect(cut).toBeLessThan(3);
  await expect(rows.nth(1).getByRole("spinbutton").first()).toHaveValue(cut.toFixed(2));

  // the playhead is still in line 1: merged with the next, the line is whole again
  await editor.getByTestId("waveform-merge").click();
  await expect(rows).toHaveCount(2);
  await expect(endOf(0)).toHaveValue("4.00");
  await expect(rows.nth(0).getByTestId("cue-text")).toHaveValue("Bonjour, je m'appelle Claire. Oui.");

  // from the keyboard: S splits at the playhead too, and the line stays split once saved
  await wave.focus();
  await page.keyboard.press("s");
  await expect(rows).toHaveCount(3);
  await editor.getByTestId("cue-save").click();
  await expect(page.locator(".ant-message").getByText("Phrases enregistrées")).toBeVisible();
  const saved = await request.get(`/api/v1/courses/${courseId}/lessons/${lessonId}/cues`, { headers: auth });
  expect(((await saved.json()).data.cues as unknown[]).length).toBe(3);
});

test("staff snap a line's edges to the nearest pauses, and are told of a time past the audio's end before saving", async ({
  page,
  request,
}) => {
  const { auth, courseId, lessonId } = await lessonWithSpeech(request, "Pauses", ["Pauses", "Pauses"]);
  // line 1 set by ear, a little off: the speech runs from 1.27 s to 2.71 s between clear pauses
  await request.put(`/api/v1/courses/${courseId}/lessons/${lessonId}/cues`, {
    headers: auth,
    data: {
      cues: [
        { start: 1.45, end: 2.45, text: "Bonjour, je m'appelle Claire." },
        { start: 4.2, end: 5.95, text: "J'habite à Lyon, avec ma sœur." },
      ],
    },
  });
  await signIn(page, ADMIN);
  await page.goto(`/courses/${courseId}/lessons`);
  await page.getByRole("button", { name: "Modifier « Pauses »" }).click();
  const editor = page.getByTestId("cue-editor");
  const rows = editor.getByTestId("cue-row");
  const wave = editor.getByTestId("waveform");
  await expect(wave).toHaveAttribute("data-state", "ready", { timeout: 30_000 });
  const startOf = (i: number) => rows.nth(i).getByRole("spinbutton").nth(0);
  const endOf = (i: number) => rows.nth(i).getByRole("spinbutton").nth(1);

  // the button: line 1's edges move onto the pauses around its speech
  await editor.getByTestId("waveform-snap").click();
  await expect.poll(async () => Number(await startOf(0).inputValue())).toBeLessThan(1.4);
  expect(Number(await startOf(0).inputValue())).toBeGreaterThan(1.1);
  expect(Number(await endOf(0).inputValue())).toBeGreaterThan(2.55);
  expect(Number(await endOf(0).inputValue())).toBeLessThan(2.85);
  // the key P does the same for the line chosen with ↓
  await endOf(1).fill("5.7");
  await wave.focus();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("p");
  await expect.poll(async () => Number(await endOf(1).inputValue())).toBeGreaterThan(5.8);
  expect(Number(await endOf(1).inputValue())).toBeLessThan(6.1);

  // a time typed past the audio's end is said on the line, and the save waits for a fix
  await endOf(1).fill("14");
  await endOf(1).blur();
  const past = rows.nth(1).getByTestId("cue-past-end");
  await expect(past).toContainText("La ligne 2 se termine à 14 s, après la fin de l'audio");
  await expect(editor.getByTestId("cue-save")).toBeDisabled();
  await endOf(1).fill("5.95");
  await endOf(1).blur();
  await expect(past).toHaveCount(0);
  await editor.getByTestId("cue-save").click();
  await expect(page.locator(".ant-message").getByText("Phrases enregistrées")).toBeVisible();
  const saved = await request.get(`/api/v1/courses/${courseId}/lessons/${lessonId}/cues`, { headers: auth });
  const cues = (await saved.json()).data.cues as { start: number; end: number }[];
  expect(cues[0]?.start).toBeLessThan(1.4);
  expect(cues[0]?.end).toBeGreaterThan(2.55);
});
