import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { violations } from "../support/axe";
import { expect, test } from "../support/fixtures";
import { fakeMicrophone } from "../support/microphone";
import { apiToken, createLearner, signIn } from "../support/session";

/**
 * What Chromium's fake microphone says: a voice-like sound (harmonics of a gliding pitch shaped
 * by two formants, syllable by syllable, with pauses), 4 s of 16-bit PCM at 48 kHz, looped.
 */
function voiceWav(): string {
  const rate = 48_000;
  const samples: number[] = [];
  const formants: [number, number][] = [
    [750, 1300],
    [300, 2300],
    [320, 800],
    [450, 2000],
  ];
  for (let s = 0; s < 12; s++) {
    const [f1, f2] = formants[s % formants.length] as [number, number];
    const n = Math.round(0.25 * rate);
    let phase = 0;
    for (let i = 0; i < n; i++) {
      const f0 = 140 + 30 * Math.sin(s / 2) + (20 * i) / n;
      phase += (2 * Math.PI * f0) / rate;
      let x = 0;
      for (let h = 1; h * f0 < 4000; h++) {
        const f = h * f0;
        x += (1 / (1 + ((f - f1) / 90) ** 2) + 0.7 / (1 + ((f - f2) / 120) ** 2)) * Math.sin(h * phase);
      }
      samples.push(0.15 * x * Math.sin((Math.PI * i) / n));
    }
    if (s % 3 === 2) for (let i = 0; i < 0.2 * rate; i++) samples.push(0);
  }
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((v, i) => {
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, v)) * 32767), i * 2);
  });
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "parlons-voice-")), "voice.wav");
  writeFileSync(file, Buffer.concat([header, data]));
  return file;
}

// Chromium's fake microphone saying the voice above, no permission prompt; a phone
test.use({
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
  launchOptions: fakeMicrophone(voiceWav()),
});
test.describe.configure({ timeout: 90_000 });

const LANGUAGES = [
  {
    lang: "fr",
    prefix: "",
    dialog: "Répéter après moi",
    outOf: "sur 100",
    disclaimer: "pas si votre prononciation est correcte",
  },
  {
    lang: "en",
    prefix: "/en",
    dialog: "Repeat after me",
    outOf: "out of 100",
    disclaimer: "not whether your pronunciation is correct",
  },
];

for (const { lang, prefix, dialog: dialogName, outOf, disclaimer } of LANGUAGES) {
  test(`pronunciation score (${lang}, phone): a recorded line gets a score, advice, both melodies and its rhythm, computed in the browser`, async ({
    page,
    request,
  }) => {
    const learner = await createLearner(request, `score-${lang}`);
    const course = await request.get("/api/v1/courses/single/anglais-pour-debutants");
    const courseId = ((await course.json()) as { data: { course: { id: string } } }).data.course.id;
    const list = await request.get(`/api/v1/courses/${courseId}/lessons`, {
      headers: { authorization: `Bearer ${await apiToken(request, learner)}` },
    });
    const lessonId = ((await list.json()) as { data: { lessons: { id: string }[] } }).data.lessons[0]?.id;
    await signIn(page, learner);
    // nothing of the recording leaves the browser: no request carries audio up while it is scored
    const uploads: string[] = [];
    page.on("request", (r) => {
      if (r.method() !== "GET" && /audio|webm|ogg|octet|multipart/.test(r.headers()["content-type"] ?? ""))
        uploads.push(r.url());
    });
    await page.goto(`${prefix}/courses/${courseId}/lessons/${lessonId}`);

    await page.getByTestId("transcript-line").nth(0).getByTestId("speak-line").click();
    const dialog = page.getByRole("dialog", { name: dialogName });
    const status = dialog.getByTestId("speak-status");
    await expect(dialog.getByTestId("wave-original")).toHaveAttribute("data-drawn", "true");
    await dialog.getByTestId("speak-start").click();
    await expect(status).toHaveAttribute("data-phase", "recording", { timeout: 20_000 });
    await page.waitForTimeout(2500);
    await dialog.getByTestId("speak-stop").click();

    const result = dialog.getByTestId("pronunciation");
    await expect(result).toHaveAttribute("data-state", "done", { timeout: 20_000 });
    const score = Number(await result.getByTestId("pronunciation-score").textContent());
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThanOrEqual(100);
    await expect(result).toContainText(outOf);
    await expect(result.getByTestId("pronunciation-advice")).not.toBeEmpty();
    await expect(result).toContainText(disclaimer);
    // both pitch contours drawn over the line's time, and the rhythm of each stretch
    expect(
      Number(await result.getByTestId("pronunciation-contour").getAttribute("data-points")),
    ).toBeGreaterThan(5);
    expect(await result.getByTestId("pronunciation-stretch").count()).toBeGreaterThanOrEqual(1);
    await expect(status).toHaveAttribute("data-phase", "ready", { timeout: 20_000 });

    // the dialog fits the phone and passes axe with the score shown
    const box = await result.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    expect(await violations(page), "speaking dialog with its score").toEqual([]);
    expect(uploads).toEqual([]);
  });
}
