import { readFile } from "node:fs/promises";
import { expect, test } from "../support/fixtures";
import { learnerWithLines } from "../support/hands-free";
import { apiToken, signIn } from "../support/session";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
test.describe.configure({ timeout: 180_000 });

/** MPEG-2 Layer III bitrates (kbit/s) by index, and sample rates (Hz) by index. */
const BITRATES = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const RATES = [22050, 24000, 16000];

/**
 * Walks the file's MPEG frames from its first byte to its last: every frame an MPEG-2 Layer III
 * one (no gap, no stray bytes), answering their count, bitrates, sample rates and the audio's length.
 */
function mp3Frames(bytes: Buffer) {
  let offset = 0;
  let frames = 0;
  const bitrates = new Set<number>();
  const rates = new Set<number>();
  while (offset < bytes.length) {
    const [a, b, c] = [bytes[offset], bytes[offset + 1] ?? 0, bytes[offset + 2] ?? 0];
    if (a !== 0xff || (b & 0xe0) !== 0xe0) throw new Error(`no frame sync at byte ${offset}`);
    if (((b >> 3) & 3) !== 2 || ((b >> 1) & 3) !== 1) throw new Error(`not MPEG-2 Layer III at ${offset}`);
    const bitrate = BITRATES[c >> 4] ?? 0;
    const rate = RATES[(c >> 2) & 3] ?? 0;
    if (!bitrate || !rate) throw new Error(`bad header at ${offset}`);
    bitrates.add(bitrate);
    rates.add(rate);
    offset += Math.floor((72 * bitrate * 1000) / rate) + ((c >> 1) & 1);
    frames += 1;
  }
  const [rate] = [...rates];
  return { frames, bitrates: [...bitrates], rates: [...rates], seconds: (frames * 576) / (rate ?? 1) };
}

const LANGUAGES = [
  {
    lang: "fr",
    prefix: "",
    button: "Télécharger la séance du jour",
    done: "Enregistré : 2 phrases en un seul MP3",
  },
  { lang: "en", prefix: "/en", button: "Download today's session", done: "Saved: 2 lines as one MP3" },
] as const;

for (const { lang, prefix, button, done } of LANGUAGES) {
  test(`on a phone (${lang}), 'download today's session' saves the day's session as one valid MP3 of the planned length`, async ({
    page,
    request,
  }) => {
    const { learner } = await learnerWithLines(request);
    // the length the session's plan says (two new lines, echoed: no spoken prompt)
    const token = await apiToken(request, learner);
    const planned = await request.get(`/api/v1/practice/hands-free?lang=${lang}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(planned.ok(), await planned.text()).toBe(true);
    const plan = (await planned.json()).data as { items: { kind: string }[]; seconds: number };
    expect(plan.items.map((i) => i.kind)).toEqual(["echo", "echo"]);

    await signIn(page, learner);
    await page.goto(`${prefix}/practice/hands-free`);
    await expect(page.getByTestId("hands-free-ready")).toBeVisible();
    const download = page.waitForEvent("download", { timeout: 120_000 });
    await page.getByRole("button", { name: button }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^parlons-\d{4}-\d{2}-\d{2}\.mp3$/);
    await expect(page.getByTestId("hands-free-download-done")).toContainText(done);

    const bytes = await readFile((await file.path()) as string);
    const mp3 = mp3Frames(bytes);
    // 16 kHz mono at 32 kbit/s (4 KB a second), as long as the plan within a quarter second
    expect(mp3.bitrates).toEqual([32]);
    expect(mp3.rates).toEqual([16000]);
    expect(Math.abs(mp3.seconds - plan.seconds), `${mp3.seconds} s, ${plan.seconds} s planned`).toBeLessThan(
      0.25,
    );
    expect(bytes.length).toBeGreaterThan(plan.seconds * 4000 * 0.95);
    expect(bytes.length).toBeLessThan(plan.seconds * 4000 * 1.05 + 1000);
    // the page stays within the phone's width
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
  });
}
