import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
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

test("staff align a lesson's script to its audio, then adjust a line on the waveform by drag and keyboard", async ({
  page,
  request,
}) => {
  const token = await apiToken(request, ADMIN);
  const auth = { authorization: `Bearer ${token}` };
  const course = await request.post("/api/v1/courses", {
    headers: auth,
    data: {
      title_fr: `Studio ${Date.now()}`,
      title_en: "Studio",
      target_language: "fr",
      level: "A1",
      active: true,
    },
  });
  const courseId = (await course.json()).data.course.id as string;
  const upload = await request.post("/api/v1/medias/file/upload", {
    headers: auth,
    multipart: { type: "audio", file: { name: "claire.mp3", mimeType: "audio/mpeg", buffer: SPEECH } },
  });
  const audio = (await upload.json()).data as { file_path: string };
  const created = await request.post(`/api/v1/courses/${courseId}/lessons`, {
    headers: auth,
    data: { title_fr: "Présentations", title_en: "Introductions", audio: audio.file_path, free: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  const lessonId = (await created.json()).data.lesson.id as string;

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
