import type { Page } from "@playwright/test";
import { violations } from "../support/axe";
import { expect, test } from "../support/fixtures";
import { learnerWithLines } from "../support/hands-free";
import { signIn } from "../support/session";

test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
test.describe.configure({ timeout: 150_000 });

test("on a phone with no speech voice, a hands-free recall session plays by itself, shows its prompts and sends the grades", async ({
  page,
  request,
}) => {
  const { learner } = await learnerWithLines(request);

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

/** Presses Tab until the control `testId` has the focus (at most 40 times): it is reachable by keyboard. */
async function tabTo(page: Page, testId: string): Promise<void> {
  for (let i = 0; i < 40; i += 1) {
    const focused = await page.evaluate(
      (id) => document.activeElement?.closest(`[data-testid="${id}"]`) !== null,
      testId,
    );
    if (focused) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`${testId} never had the focus`);
}

/** Calls the page's Media Session handler for `action`, as the lock screen or headphones would. */
async function mediaAction(page: Page, action: MediaSessionAction): Promise<void> {
  await page.evaluate((name) => {
    const handlers = (window as unknown as { mediaHandlers: Map<string, MediaSessionActionHandler> })
      .mediaHandlers;
    const handler = handlers.get(name);
    if (!handler) throw new Error(`no ${name} handler`);
    handler({ action: name });
  }, action);
}

test("in English, the hands-free session is driven by keyboard and by the Media Session's buttons, and ends by itself", async ({
  page,
  request,
}) => {
  const { learner } = await learnerWithLines(request);
  await page.addInitScript(() => {
    Object.defineProperty(window, "speechSynthesis", { value: undefined });
    // the handlers the page gives the lock screen and headphones, kept for the test to call
    const handlers = new Map<string, MediaSessionActionHandler>();
    Object.defineProperty(window, "mediaHandlers", { value: handlers });
    const set = MediaSession.prototype.setActionHandler;
    MediaSession.prototype.setActionHandler = function (action, handler) {
      if (handler) handlers.set(action, handler);
      else handlers.delete(action);
      set.call(this, action, handler);
    };
  });
  const handlers = () =>
    page.evaluate(() =>
      [...(window as unknown as { mediaHandlers: Map<string, unknown> }).mediaHandlers.keys()].sort(),
    );
  await signIn(page, learner);
  await page.goto("/en/practice/hands-free");
  await expect(page.getByTestId("hands-free-ready")).toContainText("2 lines");
  expect(await handlers()).toEqual([]);

  // the keyboard reaches every control: start, pause, resume, "I missed it"
  await tabTo(page, "hands-free-start");
  await page.keyboard.press("Enter");
  const current = page.getByTestId("hands-free-current");
  await expect(current).toHaveAttribute("data-index", "0");
  await tabTo(page, "hands-free-pause");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("hands-free-play")).toBeVisible();
  await tabTo(page, "hands-free-play");
  await page.keyboard.press(" ");
  await expect(page.getByTestId("hands-free-pause")).toBeVisible();
  await tabTo(page, "hands-free-missed");
  await page.keyboard.press(" ");
  await expect(page.getByTestId("hands-free-missed")).toHaveAttribute("aria-pressed", "true");

  // the lock screen's and headphones' buttons: pause, play, next line, the line again
  expect(await handlers()).toEqual(["nexttrack", "pause", "play", "previoustrack"]);
  await mediaAction(page, "pause");
  await expect(page.getByTestId("hands-free-play")).toBeVisible();
  expect(await page.evaluate(() => navigator.mediaSession.playbackState)).toBe("paused");
  await mediaAction(page, "play");
  await expect(page.getByTestId("hands-free-pause")).toBeVisible();
  expect(await page.evaluate(() => navigator.mediaSession.playbackState)).toBe("playing");
  await mediaAction(page, "nexttrack");
  await expect(current).toHaveAttribute("data-index", "1");
  expect(await page.evaluate(() => navigator.mediaSession.metadata?.title)).toBe("Line 2 of 2");
  await mediaAction(page, "pause");
  await expect(page.getByTestId("hands-free-play")).toBeVisible();
  // "previous" plays the current line again from its start
  await mediaAction(page, "previoustrack");
  await expect(page.getByTestId("hands-free-pause")).toBeVisible();
  await expect(current).toHaveAttribute("data-index", "1");

  // then nobody touches anything: the session ends by itself, and its buttons leave the lock screen
  await expect(page.getByTestId("hands-free-end")).toBeVisible({ timeout: 15_000 });
  expect(await handlers()).toEqual([]);
  await expect(page.getByTestId("hands-free-missed-0")).toBeChecked();
  // the end by keyboard too: a mark undone, the grades sent
  await tabTo(page, "hands-free-missed-0");
  await page.keyboard.press(" ");
  await expect(page.getByTestId("hands-free-missed-0")).not.toBeChecked();
  await tabTo(page, "hands-free-send");
  await expect(page.getByTestId("hands-free-send")).toHaveText("All good");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("hands-free-sent")).toContainText("Grades saved for 2 lines");
  expect(await violations(page)).toEqual([]);
});
