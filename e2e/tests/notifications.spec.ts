import { expect, test } from "../support/fixtures";
import { createLearner, signIn } from "../support/session";

test("a learner upgrades through the demo checkout, is notified, opens it and marks all read", async ({
  page,
  request,
}) => {
  const res = await request.get("/api/v1/plans/active");
  const plans = (
    (await res.json()) as {
      data: { plans: { id: string; name_fr: string; premium: boolean; interval: string }[] };
    }
  ).data.plans;
  const plan = plans.find((p) => p.premium && p.interval !== "once");
  expect(plan, "a premium plan is seeded").toBeTruthy();
  const learner = await createLearner(request, "notif");
  await signIn(page, learner);

  const button = page.getByRole("button", { name: "Notifications" });
  await expect(button).toBeVisible();
  await expect(page.getByTestId("notifications-badge")).toHaveCount(0);
  await button.click();
  await expect(page.getByText("Aucune notification pour le moment.")).toBeVisible();
  await button.click();

  await page.getByTestId("upgrade-button").click();
  await page
    .locator(`[data-testid="pricing-plan"][data-plan-id="${plan?.id}"]`)
    .getByTestId("choose-plan")
    .click();
  await page.getByTestId("demo-approve").click();
  await expect(page.getByTestId("checkout-success")).toBeVisible();

  // one unread notification, in French, bold, linking to the billing page
  await expect(page.getByTestId("notifications-badge")).toContainText("1");
  await page.getByTestId("notifications-button").click();
  const list = page.getByTestId("notifications-list");
  const item = list.locator('[data-testid="notification-item"][data-unread="true"]');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(`Votre abonnement premium « ${plan?.name_fr} » est actif.`);

  // mark all as read: the badge goes, the notification stays, no longer bold
  await page.getByTestId("notifications-read-all").click();
  await expect(page.getByTestId("notifications-badge")).toHaveCount(0);
  await expect(page.getByTestId("notifications-read-all")).toHaveCount(0);
  await expect(list.locator('[data-testid="notification-item"][data-unread="true"]')).toHaveCount(0);

  // opening it goes to its link
  await list.getByTestId("notification-item").first().getByRole("button").click();
  await expect(page).toHaveURL(/\/billing$/);
});
