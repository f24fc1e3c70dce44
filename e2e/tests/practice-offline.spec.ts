import { expect, test } from "../support/fixtures";
import { controlled, downloadAndFinish } from "../support/offline";
import { apiToken, createLearner, signIn } from "../support/session";

/**
 * Exercises and a hands-free session of a downloaded lesson, on a phone with the network gone:
 * the results and grades are kept on the device and sent once the connection returns, each once.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, serviceWorkers: "allow" });
test.describe.configure({ timeout: 240_000 });

interface Exercise {
  kind: "dictation" | "cloze" | "recall";
  cue: { text: string };
}

test("a dictation and a hands-free session made offline are sent once when the connection returns", async ({
  page,
  context,
}) => {
  const learner = await createLearner(page.request, "practice-offline");
  const token = await apiToken(page.request, learner);
  const headers = { authorization: `Bearer ${token}` };
  const reviewedToday = async () =>
    (await (await page.request.get("/api/v1/review/stats", { headers })).json()).data.stats
      .reviewed_today as number;
  // no speech voice: the prompts are shown, nothing waits on a voice
  await page.addInitScript(() => Object.defineProperty(window, "speechSynthesis", { value: undefined }));
  await signIn(page, learner);
  await controlled(page);
  await downloadAndFinish(page, token);

  // both sessions read once online (the worker keeps them)
  const session = await page.request.get("/api/v1/practice/session", { headers });
  const [first] = (await session.json()).data.items as Exercise[];
  expect(first?.kind).toBe("dictation");
  await page.goto("/practice");
  await expect(page.getByTestId("practice-current")).toHaveAttribute("data-kind", "dictation");
  await page.goto("/practice/hands-free");
  await expect(page.getByTestId("hands-free-ready")).toBeVisible();
  const plan = await page.request.get("/api/v1/practice/hands-free?limit=20", { headers });
  const items = ((await plan.json()).data.items as unknown[]).length;
  expect(items).toBeGreaterThan(0);

  const grades: number[] = [];
  page.on("response", (r) => {
    if (r.url().endsWith("/api/v1/practice/hands-free/grades")) grades.push(r.status());
  });
  await context.setOffline(true);
  try {
    // a dictation, answered right, offline
    await page.goto("/practice");
    await expect(page.getByTestId("practice-current")).toHaveAttribute("data-kind", "dictation");
    await page.getByTestId("practice-answer").fill(first?.cue.text ?? "");
    await page.getByTestId("practice-check").click();
    await expect(page.getByTestId("practice-result")).toHaveAttribute("data-rating", "3");
    await expect(
      page.getByText("Vous êtes hors ligne : vos réponses sont gardées sur cet appareil"),
    ).toBeVisible();

    // the hands-free session, offline: the lines from the downloaded lesson, one marked missed
    await page.goto("/practice/hands-free");
    await page.getByTestId("hands-free-start").click();
    const current = page.getByTestId("hands-free-current");
    await expect(current).toHaveAttribute("data-index", "0");
    await page.getByTestId("hands-free-missed").click();
    for (let i = 0; i < items; i += 1) {
      await expect(current).toHaveAttribute("data-index", String(i));
      await page.getByTestId("hands-free-next").click();
    }
    await expect(page.getByTestId("hands-free-end")).toBeVisible();
    await expect(page.getByTestId("hands-free-missed-0")).toBeChecked();
    await page.getByTestId("hands-free-send").click();
    await expect(page.getByTestId("hands-free-queued")).toContainText("Pas de connexion");
    // nothing reached the server
    expect(grades).toEqual([]);
    expect(await reviewedToday()).toBe(0);
  } finally {
    await context.setOffline(false);
  }

  // back online, on the same page: the session's grades go, once, and the page says so
  await expect(page.getByTestId("hands-free-sent")).toContainText(`${items} phrase`, { timeout: 20_000 });
  await expect.poll(reviewedToday, { timeout: 20_000 }).toBe(items);
  // the exercise's result goes when the practice page opens again
  await page.goto("/practice");
  await expect.poll(reviewedToday, { timeout: 20_000 }).toBe(items + 1);
  // opened again, nothing is sent twice
  await page.goto("/practice/hands-free");
  await expect(page.getByTestId("hands-free-ready").or(page.getByTestId("hands-free-empty"))).toBeVisible();
  await page.goto("/practice");
  await expect(page.getByTestId("practice-current").or(page.getByTestId("practice-empty"))).toBeVisible();
  expect(await reviewedToday()).toBe(items + 1);
  expect(grades.filter((s) => s === 200)).toHaveLength(1);
});
