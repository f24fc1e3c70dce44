import type { APIRequestContext, Page } from "@playwright/test";
import { violations } from "../support/axe";
import { expect, test } from "../support/fixtures";
import { fakeMicrophone } from "../support/microphone";
import { apiToken, createLearner, signIn } from "../support/session";

const DEMO_SLUG = "anglais-pour-debutants";

// a phone, with Chromium's fake microphone (its beep) and no permission prompt: a recall is said aloud
test.use({
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
  launchOptions: fakeMicrophone(),
});
test.describe.configure({ timeout: 150_000 });

interface Exercise {
  kind: "dictation" | "cloze" | "recall";
  cue: { text: string };
  cloze: { blanks: number[]; choices: string[][] } | null;
}

/**
 * A learner who finished the demo course's second lesson ("Au café"): its lines are in their
 * deck. Not the first: its first two lines ("Hello.", "Hi there.") hold no word a cloze may
 * blank, so the session starts with two dictations.
 */
async function learnerWithDeck(request: APIRequestContext) {
  const learner = await createLearner(request, "practice");
  const token = await apiToken(request, learner);
  const auth = { authorization: `Bearer ${token}` };
  const course = await request.get(`/api/v1/courses/single/${DEMO_SLUG}`);
  const courseId = (await course.json()).data.course.id as string;
  const list = await request.get(`/api/v1/courses/${courseId}/lessons`, { headers: auth });
  const lessonId = (await list.json()).data.lessons[1].id as string;
  const done = await request.post(`/api/v1/courses/${courseId}/lessons/done-customer`, {
    headers: auth,
    data: { lesson_id: lessonId, done: true },
  });
  expect(done.ok(), await done.text()).toBe(true);
  // the session the page will get (the same cards, kinds and blanks: it is computed, not drawn)
  const session = await request.get("/api/v1/practice/session", { headers: auth });
  const items = (await session.json()).data.items as Exercise[];
  return { learner, auth, items };
}

const words = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
const audio = (page: Page) =>
  page.getByTestId("practice-audio").evaluate((el: HTMLAudioElement) => ({
    currentTime: el.currentTime,
    rate: el.playbackRate,
  }));

test("with an empty deck, the page says how to fill it (English), with no horizontal scroll", async ({
  page,
  request,
}) => {
  const learner = await createLearner(request, "practice-empty");
  await signIn(page, learner);
  await page.goto("/en/practice");
  await expect(page.getByTestId("practice-empty")).toContainText("Nothing to practise right now");
  await expect(page.getByRole("checkbox", { name: "Fill in the blanks" })).toBeChecked();
  expect(await violations(page)).toEqual([]);
  expect(await sideways(page)).toBe(0);
});

test("on a phone, a learner takes a dictation and a cloze, sees the word-by-word diff, and ends on a summary", async ({
  page,
  request,
}) => {
  const { learner, auth, items } = await learnerWithDeck(request);
  expect(items.map((i) => i.kind).slice(0, 2)).toEqual(["dictation", "cloze"]);
  await signIn(page, learner);
  const results: number[] = [];
  page.on("response", (r) => {
    if (r.url().endsWith("/api/v1/practice/results")) results.push(r.status());
  });
  await page.getByTestId("practice-start").click();
  await expect(page).toHaveURL(/\/practice$/);
  const current = page.getByTestId("practice-current");
  await expect(current).toHaveAttribute("data-kind", "dictation");
  expect(await violations(page)).toEqual([]);
  expect(await sideways(page)).toBe(0);

  // the line plays by itself; "slower" plays it at 0.75×
  await expect.poll(async () => (await audio(page)).currentTime, { timeout: 15_000 }).toBeGreaterThan(0.6);
  await page.getByTestId("practice-slower").click();
  await expect.poll(async () => (await audio(page)).rate).toBe(0.75);

  // dictation: case and punctuation do not count
  const first = items[0] as Exercise;
  await page.getByTestId("practice-answer").fill(first.cue.text.toLowerCase().replace(/[.!?,]/g, ""));
  await page.getByTestId("practice-answer").press("Enter");
  await expect(page.getByTestId("practice-result")).toHaveAttribute("data-rating", "3");
  await expect(page.getByTestId("practice-result")).toContainText("Juste");
  expect(await violations(page)).toEqual([]);
  await page.getByTestId("practice-next").click();

  // cloze: the blank typed, another picked among the course's words when there are two
  const cloze = items[1] as Exercise;
  await expect(current).toHaveAttribute("data-kind", "cloze");
  const lineWords = words(cloze.cue.text);
  const blanks = cloze.cloze?.blanks ?? [];
  expect(blanks.length).toBeGreaterThan(0);
  await page.getByTestId("practice-blank-0").fill(lineWords[blanks[0] as number] as string);
  if (blanks.length > 1)
    await page
      .getByTestId("practice-choices-1")
      .getByText(lineWords[blanks[1] as number]?.toLowerCase() as string, { exact: true })
      .click();
  expect(await violations(page)).toEqual([]);
  expect(await sideways(page)).toBe(0);
  await page.getByTestId("practice-check").click();
  await expect(page.getByTestId("practice-result")).toHaveAttribute("data-rating", "3");
  await page.getByTestId("practice-next").click();

  // a dictation with a word wrong and one missing: the diff says which, and the line is Again
  const third = items[2] as Exercise;
  await expect(current).toHaveAttribute("data-kind", third.kind);
  if (third.kind === "dictation") {
    const [head] = words(third.cue.text);
    await page.getByTestId("practice-answer").fill(`${head} zzz`);
    await page.getByTestId("practice-check").click();
    await expect(page.getByTestId("practice-result")).toHaveAttribute("data-rating", "1");
    await expect(page.getByTestId("practice-diff").locator("del")).toContainText("zzz");
    expect(await violations(page)).toEqual([]);
    await page.getByTestId("practice-next").click();
  }

  // the server graded each once, as the page did
  await expect.poll(() => results.filter((s) => s === 200).length).toBe(third.kind === "dictation" ? 3 : 2);
  const stats = await request.get("/api/v1/review/stats", { headers: auth });
  expect((await stats.json()).data.stats.reviewed_today).toBe(third.kind === "dictation" ? 3 : 2);

  // only dictations for the rest of the session, answered right: the summary follows
  await page.getByRole("checkbox", { name: "Texte à trous" }).uncheck();
  await page.getByRole("checkbox", { name: "Rappel" }).uncheck();
  await expect(current).toHaveAttribute("data-kind", "dictation");
  const rest = await request.get("/api/v1/practice/session?kinds=dictation", { headers: auth });
  for (const item of (await rest.json()).data.items as Exercise[]) {
    await expect(current).toHaveAttribute("data-kind", "dictation");
    await page.getByTestId("practice-answer").fill(item.cue.text);
    await page.getByTestId("practice-check").click();
    await expect(page.getByTestId("practice-result")).toHaveAttribute("data-rating", "3");
    await page.getByTestId("practice-next").click();
  }
  const summary = page.getByTestId("practice-summary");
  await expect(summary).toBeVisible();
  await expect(summary).toContainText("Séance terminée");
  await expect(summary).toContainText("Prochaine révision");
  expect(await violations(page)).toEqual([]);
  expect(await sideways(page)).toBe(0);
});

const LANGUAGES = [
  {
    lang: "fr",
    prefix: "",
    kinds: ["Dictée", "Texte à trous"],
    say: "La dire",
    type: "L'écrire",
    stop: "Arrêter",
  },
  {
    lang: "en",
    prefix: "/en",
    kinds: ["Dictation", "Fill in the blanks"],
    say: "Say it",
    type: "Type it",
    stop: "Stop",
  },
];

for (const { lang, prefix, kinds, say, type, stop } of LANGUAGES) {
  test(`on a phone (${lang}), a dictation, a cloze, a recall said aloud into the microphone and one typed`, async ({
    page,
    request,
  }) => {
    const { learner, auth, items } = await learnerWithDeck(request);
    await signIn(page, learner);
    await page.goto(`${prefix}/practice`);
    const current = page.getByTestId("practice-current");
    const result = page.getByTestId("practice-result");

    // a dictation, then a cloze with every blank typed
    await expect(current).toHaveAttribute("data-kind", "dictation");
    await page.getByTestId("practice-answer").fill((items[0] as Exercise).cue.text);
    await page.getByTestId("practice-check").click();
    await expect(result).toHaveAttribute("data-rating", "3");
    await page.getByTestId("practice-next").click();
    await expect(current).toHaveAttribute("data-kind", "cloze");
    const cloze = items[1] as Exercise;
    const blanks = cloze.cloze?.blanks ?? [];
    for (const [i, at] of blanks.entries())
      await page.getByTestId(`practice-blank-${i}`).fill(words(cloze.cue.text)[at] as string);
    await page.getByTestId("practice-check").click();
    await expect(result).toHaveAttribute("data-rating", "3");
    await page.getByTestId("practice-next").click();

    const reviewed = async () =>
      (await (await request.get("/api/v1/review/stats", { headers: auth })).json()).data.stats.reviewed_today;
    await expect.poll(reviewed).toBe(2);

    // recalls only: the first said aloud, recorded, compared by ear and graded by the learner
    for (const kind of kinds) await page.getByRole("checkbox", { name: kind, exact: true }).uncheck();
    await expect(current).toHaveAttribute("data-kind", "recall");
    const recalls = await request.get("/api/v1/practice/session?kinds=recall", { headers: auth });
    const [said, typed] = (await recalls.json()).data.items as Exercise[];
    await expect(page.getByTestId("practice-translation")).not.toBeEmpty();
    await expect(page.getByRole("radio", { name: say })).toBeChecked();
    await page.getByTestId("practice-record").click();
    await expect(page.getByTestId("practice-record")).toContainText(stop, { timeout: 20_000 });
    await expect(page.getByTestId("practice-compare")).toBeDisabled();
    await page.getByTestId("practice-record").click();
    await expect(page.getByTestId("practice-compare")).toBeEnabled();
    // a recording was made: the page plays it, then the original
    await expect(page.locator("[data-testid='practice-recall'] audio")).toHaveAttribute("src", /^blob:/);
    await page.getByTestId("practice-compare").click();
    await expect(page.getByTestId("practice-line")).toHaveText(said?.cue.text ?? "");
    expect(await violations(page)).toEqual([]);
    await page.getByTestId("practice-grade-good").click();
    await expect(result).toHaveAttribute("data-rating", "3");
    await page.getByTestId("practice-next").click();

    // the next typed: graded as a dictation
    if (typed) {
      await expect(current).toHaveAttribute("data-kind", "recall");
      await page.getByText(type, { exact: true }).click();
      await page.getByTestId("practice-answer").fill(typed.cue.text);
      await page.getByTestId("practice-check").click();
      await expect(result).toHaveAttribute("data-rating", "3");
    }
    expect(await sideways(page)).toBe(0);
    await expect.poll(reviewed).toBe(typed ? 4 : 3);
  });
}
