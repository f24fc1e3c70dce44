import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { signIn } from "../support/session";

/** Serious and critical WCAG 2.1 A/AA violations on the page as it is now. */
async function violations(page: Page) {
  const result = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")})`,
    );
}

test("public pages have no serious accessibility violations", async ({ page }) => {
  test.slow(); // nine pages, each checked by axe after the network settles
  for (const path of [
    "/",
    "/en",
    "/courses",
    "/pricing",
    "/events",
    "/faqs",
    "/contact",
    "/auth/login",
    "/forgot-password",
  ]) {
    await page.goto(path);
    await page.locator("main, [role=main], #root > *").first().waitFor();
    await page.waitForLoadState("networkidle");
    expect(await violations(page), path).toEqual([]);
  }
  await page.goto("/");
  await page.getByTestId("header-signup").click();
  await expect(page.getByRole("dialog")).toBeVisible();
  expect(await violations(page), "signup modal").toEqual([]);
});

test("signed-in pages have no serious accessibility violations", async ({ page }) => {
  test.slow(); // one axe run per page, a dozen pages
  await signIn(page, ADMIN);
  const courses = (await (await page.request.get("/api/v1/courses/active")).json()) as {
    data: { courses: { id: string }[] };
  };
  const courseId = courses.data.courses[0]?.id ?? "";
  for (const path of [
    "/dashboard",
    "/profile",
    "/billing",
    `/courses/${courseId}`,
    `/courses/${courseId}/lessons`,
    "/plans",
    "/setting",
    "/User",
    "/User/create",
    "/User/roles",
  ]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    expect(await violations(page), path).toEqual([]);
  }
});

test("everything on the lesson page is reachable with the keyboard", async ({ page }) => {
  await signIn(page, ADMIN);
  const courses = (await (await page.request.get("/api/v1/courses/active")).json()) as {
    data: { courses: { id: string }[] };
  };
  const courseId = courses.data.courses[0]?.id ?? "";
  const lessons = (await (await page.request.get(`/api/v1/courses/${courseId}/lessons`)).json()) as {
    data: { lessons: { id: string }[] };
  };
  await page.goto(`/courses/${courseId}/lessons/${lessons.data.lessons[0]?.id}`);
  await page.waitForLoadState("networkidle");
  expect(await violations(page), "lesson page").toEqual([]);
  // tab through: the play button gets the focus, with a visible outline
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = await page.getByTestId("player-play").evaluate((el) => el === document.activeElement);
  }
  expect(reached, "the play button is reachable with Tab").toBe(true);
  const outline = await page
    .getByTestId("player-play")
    .evaluate(
      (el) => getComputedStyle(el).outlineStyle !== "none" || getComputedStyle(el).boxShadow !== "none",
    );
  expect(outline, "the focused play button shows a focus ring").toBe(true);
});
