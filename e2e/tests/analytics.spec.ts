import { violations } from "../support/axe";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, signIn } from "../support/session";

test("the staff analytics page draws its charts, each with its figures as a table", async ({
  page,
  request,
}) => {
  // the roll-up runs every ten minutes: run it now so that the page has today's figures
  const admin = await apiToken(request, ADMIN);
  const refreshed = await request.post("/api/v1/analytics/refresh", {
    headers: { Authorization: `Bearer ${admin}` },
  });
  expect(refreshed.ok(), await refreshed.text()).toBe(true);

  await signIn(page, ADMIN);
  await page.goto("/analytics");
  await expect(page.getByRole("heading", { level: 1, name: "Statistiques" })).toBeVisible();
  for (const chart of [
    "chart-active",
    "chart-minutes",
    "chart-reviews",
    "chart-subscriptions",
    "chart-mrr",
    "chart-attendance",
  ]) {
    await expect(page.getByTestId(chart).locator("canvas"), chart).toBeVisible();
  }
  // the text alternative of a chart: its figures, one row a day of the last 30 days
  const active = page.getByTestId("analytics-active");
  await active.getByText("Voir les chiffres en tableau").click();
  await expect(active.locator(".analytics-figure__table tbody tr")).toHaveCount(30);
  await expect(page.getByTestId("analytics-periods")).toContainText("Semaine du");

  // the hard lines of the demo course: a line's cell reached and opened by keyboard, axe clean
  const hard = page.getByTestId("analytics-hard-lines");
  await hard.getByRole("combobox", { name: "Cours" }).click();
  await page
    .locator(".ant-select-dropdown:visible .ant-select-item-option[title='Anglais pour débutants']")
    .click();
  const cell = hard.getByTestId("heat-cell").first();
  await cell.focus();
  await page.keyboard.press("Enter");
  await expect(hard.getByTestId("heat-picked")).toContainText("Leçon 1, phrase 1");
  expect(await violations(page)).toEqual([]);
});
