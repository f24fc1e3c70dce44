import { ownCourse } from "../support/course";
import { expect, test } from "../support/fixtures";

test("public pages arrive rendered by the server, then hydrate and stay interactive", async ({
  page,
  request,
}) => {
  // a course of this test's own, the newest: first in the catalogue, whatever other specs made
  const { title } = await ownCourse(request, "Rendu serveur", [{ title: "Leçon", free: true }]);

  // the HTML itself carries the content (read without running any script)
  const html = (await (await request.get("/courses")).text())
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
  expect(html).toContain(title);
  expect(html).toContain('id="ssr-data"');

  await page.goto("/");
  await expect(page.getByTestId("home-link")).toBeVisible();
  // hydrated: the header's buttons answer
  await page.getByTestId("header-login").click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();

  // client-side navigation to the catalogue and a course
  await page.goto("/courses");
  await page.getByTestId("course-card").filter({ hasText: title }).getByRole("link").first().click();
  await expect(page).toHaveURL(/\/courses\/[^/]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);

  // the language switch leads to the same page in English
  await page.getByTestId("lang-switch").click();
  await expect(page).toHaveURL(/\/en\/courses\/[^/]+$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByTestId("header-login")).toHaveText(/Log in|Sign in/);
});

test("unknown pages answer 404 with the not-found page of their language", async ({ page }) => {
  const fr = await page.goto("/nimporte-quoi");
  expect(fr?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toContainText("Cette page est introuvable");
  const en = await page.goto("/en/nothing-here");
  expect(en?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toContainText("This page could not be found");
});
