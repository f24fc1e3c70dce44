import type { Page } from "@playwright/test";
import { violations } from "../support/axe";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, signIn, signOutHere } from "../support/session";

/** Pixels of a chart's canvas in the blue of its first series (#1677ff): what it drew of it. */
const painted = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .locator("canvas")
    .evaluate((canvas: HTMLCanvasElement) => {
      const data = canvas.getContext("2d")?.getImageData(0, 0, canvas.width, canvas.height).data ?? [];
      let blue = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b, a] = [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0, data[i + 3] ?? 0];
        if (a > 0 && b > 200 && Math.abs(r - 22) < 50 && Math.abs(g - 119) < 50) blue++;
      }
      return blue;
    });

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

  // legends in the page's language: the day is "Jour", no "Time: --"
  const legend = page.getByTestId("chart-active").locator(".u-legend");
  await expect(legend.locator(".u-series").first().locator(".u-label")).toHaveText("Jour");
  await expect(page.locator(".u-legend").filter({ hasText: "Time" })).toHaveCount(0);
  // MRR has one day of figures (today's, since the server started): drawn as a point
  await expect.poll(() => painted(page, "chart-mrr")).toBeGreaterThan(0);
  // a range of one day: each chart shows that day
  const today = new Date().toISOString().slice(0, 10);
  await page.getByTestId("analytics-from").fill(today);
  await page.getByRole("button", { name: "Afficher", exact: true }).click();
  await expect(active.locator(".analytics-figure__table tbody tr")).toHaveCount(1);
  await expect.poll(() => painted(page, "chart-active")).toBeGreaterThan(0);
  await page.getByRole("button", { name: "30 derniers jours" }).click();
  await expect(active.locator(".analytics-figure__table tbody tr")).toHaveCount(30);

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

test("the staff landing page shows the business, each figure a link to its page; a role without billing access sees no money", async ({
  page,
  request,
}) => {
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.toUpperCase();
  const headers = { Authorization: `Bearer ${await apiToken(request, ADMIN)}` };
  const role = await request.post("/api/v1/api/role", {
    headers,
    data: { title: `TEACHERS_${tag}`, permissions: ["dashboard.admin", "analytics.read"] },
  });
  expect(role.status(), await role.text()).toBe(201);
  const teacher = { email: `teacher.${tag.toLowerCase()}@e2e.test`, password: "Bienvenue-2026!" };
  const added = await request.post("/api/v1/users/add", {
    headers,
    data: { ...teacher, role: `TEACHERS_${tag}`, full_name: "Teacher Desk" },
  });
  expect(added.status(), await added.text()).toBe(201);

  await signIn(page, ADMIN);
  const card = page.getByTestId("staff-overview");
  await expect(card.getByText("L'activité")).toBeVisible();
  const figures = ["active_learners", "lessons_done_week", "new_learners_month", "mrr", "revenue_month"];
  for (const key of figures)
    await expect(card.getByTestId(`overview-${key}`)).toHaveAttribute("data-value", /^\d+$/);
  await expect(card.getByTestId("overview-mrr")).toContainText("revenu mensuel récurrent");
  await expect(card.getByTestId("overview-mrr")).toContainText("€");
  await expect(card).not.toContainText("Permissions");
  await card.getByTestId("overview-new_learners_month").click();
  await expect(page).toHaveURL(/\/User\/customers$/);
  await page.goto("/en/dashboard");
  await expect(page.getByTestId("staff-overview").getByTestId("overview-lessons_done_week")).toContainText(
    "lessons finished this week",
  );
  await page.getByTestId("staff-overview").getByTestId("overview-mrr").click();
  await expect(page).toHaveURL(/\/en\/sales$/);
  await page.goto("/es/dashboard");
  await expect(page.getByTestId("staff-overview").getByTestId("overview-revenue_month")).toContainText(
    "cobrado este mes",
  );
  expect(await violations(page)).toEqual([]);

  // a teaching role: the learners and lessons, no sign-ups and no money
  await signOutHere(page);
  await signIn(page, teacher);
  const its = page.getByTestId("staff-overview");
  await expect(its.getByTestId("overview-active_learners")).toBeVisible();
  await expect(its.getByTestId("overview-lessons_done_week")).toBeVisible();
  for (const key of ["new_learners_month", "mrr", "revenue_month"])
    await expect(its.getByTestId(`overview-${key}`)).toHaveCount(0);
  await its.getByTestId("overview-active_learners").click();
  await expect(page).toHaveURL(/\/analytics$/);
});
