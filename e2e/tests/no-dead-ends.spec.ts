import { ownCourse } from "../support/course";
import { expect, test } from "../support/fixtures";
import { createLearner, signIn } from "../support/session";

const UNKNOWN_ID = "019a0000-0000-7000-8000-000000000000";

test("a course that fails to load says why and offers Retry, which then shows it", async ({ page }) => {
  // a course of this test's own, the newest: on the catalogue's first page whatever other specs made
  const { title } = await ownCourse(page.request, "Réessayer", [{ title: "Leçon", free: true }]);
  await page.goto("/courses");
  const card = page.getByTestId("course-card").filter({ hasText: title });
  await expect(card).toBeVisible();

  // the API is down for the course's own read until the learner retries
  let down = true;
  let failed = 0;
  await page.route("**/api/v1/courses/single/**", async (route) => {
    if (!down) return route.continue();
    failed += 1;
    return route.abort("connectionrefused");
  });
  await card.getByRole("link").first().click();
  const error = page.getByTestId("load-error");
  await expect(error).toBeVisible();
  await expect(error).toContainText("Le chargement a échoué");
  await expect(error).toContainText("Impossible de joindre le serveur");
  // one automatic retry at most, then the error state stays: no endless spinner, no endless retries
  const tries = failed;
  await page.waitForTimeout(1_500);
  expect(failed).toBe(tries);
  await expect(error).toBeVisible();

  down = false;
  await page.getByTestId("load-error-retry").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(error).toBeHidden();
});

test("a server error says so in English with Retry", async ({ page }) => {
  await page.goto("/en/courses");
  const card = page.getByTestId("course-card").first();
  await expect(card).toBeVisible();
  await page.route("**/api/v1/courses/single/**", (route) =>
    route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ statusCode: 503, code: "UNAVAILABLE", message: "Down for maintenance" }),
    }),
  );
  await card.getByRole("link").first().click();
  await expect(page.getByTestId("load-error")).toContainText("The server ran into a problem");
  await expect(page.getByTestId("load-error-retry")).toHaveText(/Retry/);
});

for (const [prefix, text] of [
  ["", "Cette page est introuvable"],
  ["/en", "This page could not be found"],
] as const) {
  test(`an unknown course or lesson answers 404 with the not-found page (${prefix || "fr"})`, async ({
    page,
    request,
  }) => {
    const res = await page.goto(`${prefix}/courses/${UNKNOWN_ID}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByTestId("not-found")).toContainText(text);
    const lessons = await request.get(`${prefix}/courses/${UNKNOWN_ID}/lessons`);
    expect(lessons.status()).toBe(404);
    const lesson = await request.get(`${prefix}/courses/${UNKNOWN_ID}/lessons/${UNKNOWN_ID}`);
    expect(lesson.status()).toBe(404);
  });
}

test("a staff page asked for by a learner answers 403 with the access-denied page, in each language", async ({
  page,
}) => {
  await signIn(page, await createLearner(page.request, "forbidden"));
  const fr = await page.goto("/setting");
  expect(fr?.status()).toBe(403);
  await expect(page.getByText("Accès refusé")).toBeVisible();
  const en = await page.goto("/en/User");
  expect(en?.status()).toBe(403);
  await expect(page.getByText("Access denied")).toBeVisible();
  // the learner's own pages open as usual
  expect((await page.goto("/dashboard"))?.status()).toBe(200);
});
