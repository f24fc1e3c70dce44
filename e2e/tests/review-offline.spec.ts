import { expect, test } from "../support/fixtures";
import { controlled, downloadAndFinish } from "../support/offline";
import { apiToken, createLearner, signIn } from "../support/session";

/** Review on a phone with the network gone: a downloaded lesson's lines, one message, sent once back. */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, serviceWorkers: "allow" });
test.describe.configure({ timeout: 240_000 });

/** French and English (issue 24's "Done when"): the same session, the summary in the learner's language. */
const LANGS = [
  { lang: "fr", prefix: "", whenOnline: "au retour du réseau" },
  { lang: "en", prefix: "/en", whenOnline: "once back online" },
] as const;

for (const { lang, prefix, whenOnline } of LANGS)
  test(`a review session of a downloaded lesson works offline, says so once, and counts once back online (${lang})`, async ({
    page,
    context,
  }) => {
    const learner = await createLearner(page.request, `review-offline-${lang}`);
    const token = await apiToken(page.request, learner);
    const headers = { authorization: `Bearer ${token}` };
    await signIn(page, learner);
    await controlled(page);

    // the lesson downloaded and finished: its lines are in the deck
    await downloadAndFinish(page, token, prefix);
    // the deck read once online (the worker keeps it)
    await page.goto(`${prefix}/review`);
    await expect(page.getByTestId("review-current")).toBeVisible();
    const cards = Number((await page.getByTestId("review-left").textContent())?.match(/\d+/)?.[0] ?? 0);
    expect(cards).toBeGreaterThan(0);

    const toasts: string[] = [];
    await context.setOffline(true);
    try {
      await page.reload();
      await expect(page.getByTestId("offline-banner")).toBeVisible();
      await expect(page.getByTestId("review-current")).toBeVisible();
      for (let i = 0; i < cards; i += 1) {
        await page.getByTestId("review-reveal").click();
        // each grade button says when the card comes back
        await expect(page.getByTestId("interval-good")).not.toBeEmpty();
        await page.getByTestId("grade-good").click();
        for (const text of await page.locator(".ant-message-notice, .toast").allTextContents())
          toasts.push(text);
      }
      // the session ends on its summary, not on "nothing to review"
      const summary = page.getByTestId("review-summary");
      await expect(summary).toBeVisible();
      await expect(page.getByTestId("summary-items")).toContainText(String(cards));
      await expect(page.getByTestId("summary-accuracy")).toContainText("100");
      await expect(page.getByTestId("summary-streak")).toContainText(whenOnline);
      await expect(page.getByTestId("review-finished")).toHaveCount(0);
      // nothing said twice
      expect(new Set(toasts).size).toBe(toasts.length);
      await expect(page.locator(".ant-message-notice, .toast")).toHaveCount(0);
      // nothing reached the server yet
      const stats = await page.request.get("/api/v1/review/stats", { headers });
      expect((await stats.json()).data.stats.reviewed_today).toBe(0);
    } finally {
      await context.setOffline(false);
    }

    // back online: every grade once, and the session
    await expect
      .poll(
        async () =>
          (await (await page.request.get("/api/v1/review/stats", { headers })).json()).data.stats
            .reviewed_today,
        { timeout: 20_000 },
      )
      .toBe(cards);
    await expect
      .poll(
        async () => (await (await page.request.get("/api/v1/habit", { headers })).json()).data.today.lines,
        {
          timeout: 20_000,
        },
      )
      .toBe(cards);
  });
