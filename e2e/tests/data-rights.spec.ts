import { readFile } from "node:fs/promises";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { createLearner, signIn } from "../support/session";

test("a learner downloads their data as JSON from the profile", async ({ page, request }) => {
  const learner = await createLearner(request, "export");
  await signIn(page, learner);
  await page.goto("/profile");
  const card = page.getByTestId("data-rights");
  await expect(card).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    card.getByTestId("data-export").click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^parlons-data-\d{4}-\d{2}-\d{2}\.json$/);
  const archive = JSON.parse(await readFile(await download.path(), "utf8")) as {
    account: { email: string };
  };
  expect(archive.account.email).toBe(learner.email);
});

test("a learner deletes their account after confirming the password; the account is gone", async ({
  page,
  request,
}) => {
  const learner = await createLearner(request, "erase");
  await signIn(page, learner);
  await page.goto("/en/profile");
  await page.getByTestId("account-delete").click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Delete your account for good?");
  await dialog.getByLabel("Password").fill("not-my-password");
  await page.locator("#account-delete-confirm").click();
  await expect(dialog).toContainText("Wrong password");
  await dialog.getByLabel("Password").fill(learner.password);
  await page.locator("#account-delete-confirm").click();
  await expect(page).toHaveURL(/\/en$/);
  await expect(page.getByText("Your account has been deleted.")).toBeVisible();
  // the account no longer signs in
  const res = await request.post("/api/v1/user/authenticate", {
    data: { username: learner.email, password: learner.password },
  });
  expect(res.status()).toBe(401);

  // staff's privacy requests: an erasure is "done", never "link sent by e-mail" (no mail went)
  await signIn(page, ADMIN);
  await page.goto("/data-requests");
  const erasures = page.getByTestId("data-requests-table").locator("tbody tr").filter({
    hasText: "Suppression du compte",
  });
  await expect(erasures.first()).toContainText("Effectuée");
  await expect(erasures.filter({ hasText: "lien envoyé" })).toHaveCount(0);
});
