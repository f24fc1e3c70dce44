import { existsSync } from "node:fs";
import { violations } from "../support/axe";
import { ownCourse } from "../support/course";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, signIn } from "../support/session";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
test.describe.configure({ timeout: 150_000 });

// the server reads Debian's dict-freedict-fra-eng where this machine installed it (DICTIONARY_DIR)
const dictionary = existsSync("/usr/share/dictd/freedict-fra-eng.index");

/** The same path in the learner's language, French and English (issue 24's "Done when"). */
const TEXTS = [
  {
    lang: "fr",
    prefix: "",
    meaning: "café (la boisson)",
    source: "Glossaire du cours",
    added: "Ajouté à vos mots",
    summary: "Session terminée : 1 carte révisée",
    known: "1 mot connu",
  },
  {
    lang: "en",
    prefix: "/en",
    meaning: "coffee (the drink, or the place)",
    source: "Course glossary",
    added: "Added to your words",
    summary: "Session done: 1 card reviewed",
    known: "1 known word",
  },
] as const;

for (const tx of TEXTS)
  test(`on a phone, a learner taps a word, reads its meaning and where it comes from, adds it, reviews it to the session's summary, and counts it known (${tx.lang})`, async ({
    page,
    request,
  }) => {
    const course = await ownCourse(request, `Mots ${tx.lang}`, [{ title: "Au café", free: true }], {
      language: "fr",
    });
    const lessonId = course.lessonIds[0] as string;
    const headers = { authorization: `Bearer ${await apiToken(request, ADMIN)}` };
    const cues = await request.put(`/api/v1/courses/${course.courseId}/lessons/${lessonId}/cues`, {
      headers,
      data: {
        cues: [
          {
            start: 0,
            end: 3,
            text: "Bonjour, je voudrais un café.",
            translation_en: "Hello, I would like a coffee.",
          },
          { start: 3, end: 6, text: "Merci beaucoup.", translation_en: "Thank you very much." },
        ],
      },
    });
    expect(cues.ok(), await cues.text()).toBe(true);
    const entry = await request.post(`/api/v1/courses/${course.courseId}/glossary`, {
      headers,
      data: { term: "café", meaning_fr: "café (la boisson)", meaning_en: "coffee (the drink, or the place)" },
    });
    expect(entry.status(), await entry.text()).toBe(201);

    const learner = await createLearner(request, "words");
    await signIn(page, learner);
    const lessonPage = `${tx.prefix}/courses/${course.courseId}/lessons/${lessonId}`;
    await page.goto(lessonPage);
    await page.getByTestId("word-mode").click();
    const word = (text: string) =>
      page.getByTestId("transcript-word").filter({ hasText: new RegExp(`^${text}$`) });
    await expect(word("café")).toHaveAttribute("data-status", "new");

    // a tap opens the word's meaning, from the course's glossary, said so
    await word("café").tap();
    const sheet = page.getByRole("dialog");
    await expect(sheet.getByTestId("word-meaning").first()).toContainText(tx.meaning);
    await expect(sheet.getByTestId("word-source").first()).toHaveText(tx.source);
    expect(await violations(page)).toEqual([]);
    await sheet.getByTestId("word-add").tap();
    await expect(sheet.getByTestId("word-in-deck")).toContainText(tx.added);
    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    await expect(word("café")).toHaveAttribute("data-status", "learning");

    // from the keyboard: a word is a button
    await word("Bonjour").focus();
    await page.keyboard.press("Enter");
    if (tx.lang === "fr") {
      // the dictionary speaks English: read in the English interface only
    } else if (dictionary) {
      await expect(sheet.getByTestId("word-source").first()).toHaveText("freedict-fra-eng dictionary");
      await expect(sheet.getByTestId("word-meaning").first()).toContainText("good morning");
    } else {
      await expect(sheet.getByTestId("word-no-meaning")).toBeVisible();
    }
    await page.keyboard.press("Escape");
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBe(0);

    // the word card comes up in the review session; graded Easy, the word is known
    await page.goto(`${tx.prefix}/review`);
    await expect(page.getByTestId("review-word")).toContainText("café");
    await page.getByTestId("review-reveal").tap();
    await expect(page.getByTestId("review-word-meaning")).toContainText(tx.meaning);
    await page.getByTestId("grade-easy").tap();
    // the session ends on its summary, not on "nothing to review"
    await expect(page.getByTestId("review-summary")).toContainText(tx.summary);
    await expect(page.getByTestId("summary-items")).toContainText("1");
    await expect(page.getByTestId("review-finished")).toHaveCount(0);
    await page.goto(`${tx.prefix}/dashboard`);
    // the dashboard's cards load after its chunk: a loaded machine takes its time
    await expect(page.locator('[data-testid="words-count"][data-language="fr"]')).toContainText(tx.known, {
      timeout: 30_000,
    });
    await page.goto(lessonPage);
    await expect(word("café")).toHaveAttribute("data-status", "known");
  });
