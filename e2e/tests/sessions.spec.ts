import type { Browser, Page } from "@playwright/test";
import { violations } from "../support/axe";
import { expect, test } from "../support/fixtures";
import { type Account, createLearner, signIn } from "../support/session";

// several browsers, each signed in, and axe runs: more than the default time on a busy machine
test.describe.configure({ timeout: 120_000 });

/** A second browser (its own cookies and storage) signed in as the same learner. */
async function elsewhere(browser: Browser, account: Account): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, account);
  return page;
}

/** A navigation inside the app (no page load): the next request carries the access token in memory. */
const navigateInApp = (page: Page, path: string) =>
  page.evaluate((to) => {
    history.pushState({}, "", to);
    dispatchEvent(new PopStateEvent("popstate"));
  }, path);

test("where you are signed in: two browsers listed, the other one ended and signed out at its next request", async ({
  page,
  browser,
  request,
}) => {
  const learner = await createLearner(request, "sessions");
  await signIn(page, learner);
  const other = await elsewhere(browser, learner);

  await page.goto("/profile");
  const card = page.getByTestId("sessions-card");
  await expect(card.getByRole("heading", { name: "Où vous êtes connecté" })).toBeVisible();
  const rows = card.getByTestId("session-row");
  await expect(rows).toHaveCount(2);
  await expect(card.getByTestId("session-current")).toHaveCount(1);
  await expect(rows.first()).toContainText("Cet appareil");
  await expect(rows.first()).toContainText("Chrome sur Linux");
  expect(await violations(page)).toEqual([]);

  // by keyboard: the other row's button is reached and pressed
  const end = rows.nth(1).getByRole("button", { name: "Se déconnecter de Chrome sur Linux" });
  await end.focus();
  await expect(end).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Session terminée")).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(card.getByTestId("sessions-none")).toBeVisible();

  // the other browser still shows its page; its next request finds its session over
  await expect(other).toHaveURL(/\/dashboard$/);
  await navigateInApp(other, "/profile");
  await expect(other).toHaveURL(/\/auth\/login/);
  await other.context().close();
});

test("sign out everywhere else: asks first, then every other browser is signed out", async ({
  page,
  browser,
  request,
}) => {
  const learner = await createLearner(request, "sessions-all");
  await signIn(page, learner);
  const second = await elsewhere(browser, learner);
  const third = await elsewhere(browser, learner);

  await page.goto("/en/profile");
  const card = page.getByTestId("sessions-card");
  await expect(card.getByTestId("session-row")).toHaveCount(3);
  await card.getByRole("button", { name: "Sign out everywhere else" }).click();
  const dialog = page.getByRole("dialog", { name: "Sign out everywhere else?" });
  await expect(dialog).toBeVisible();
  // cancelled: nothing ends
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByTestId("session-row")).toHaveCount(3);

  await card.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(dialog).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "Sign them all out" }).click();
  await expect(page.getByText("2 other sessions ended")).toBeVisible();
  await expect(card.getByTestId("session-row")).toHaveCount(1);

  for (const other of [second, third]) {
    await navigateInApp(other, "/profile");
    await expect(other).toHaveURL(/\/auth\/login/);
    await other.context().close();
  }
  // this browser goes on
  await page.reload();
  await expect(card.getByTestId("session-current")).toBeVisible();
});
