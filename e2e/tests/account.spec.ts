import { expect, test } from "../support/fixtures";
import { linkFromMail } from "../support/mail";
import { createLearner, signIn } from "../support/session";

test("forgotten password: mailed link, new password, the old one stops working, the link works once", async ({
  page,
  request,
}) => {
  const user = await createLearner(request, "account");
  await page.goto("/forgot-password");
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByRole("button", { name: "Envoyer le lien" }).click();
  await expect(page.getByTestId("forgot-sent")).toBeVisible();

  const link = await linkFromMail(user.email, /http:\/\/127\.0\.0\.1:\d+\/reset-password\/[\w-]+/);
  await page.goto(link);
  await page.getByLabel("Nouveau mot de passe").fill("court");
  await page.getByLabel("Confirmez le mot de passe").fill("court");
  await page.getByRole("button", { name: "Changer le mot de passe" }).click();
  await expect(page.getByText("Au moins 8 caractères", { exact: true })).toBeVisible();
  await page.getByLabel("Nouveau mot de passe").fill("Nouveau-mot-2026!");
  await page.getByLabel("Confirmez le mot de passe").fill("Nouveau-mot-2026!");
  await page.getByRole("button", { name: "Changer le mot de passe" }).click();
  await expect(page.getByTestId("reset-done")).toBeVisible();

  // the same link again: invalid
  await page.goto(link);
  await expect(page.getByTestId("reset-invalid")).toBeVisible();

  const old = await request.post("/api/v1/user/authenticate", {
    data: { username: user.email, password: user.password },
  });
  expect(old.status()).toBe(401);
  await signIn(page, { email: user.email, password: "Nouveau-mot-2026!" });
});

test("profile and password change from the app", async ({ page, request }) => {
  const user = await createLearner(request, "account");
  await signIn(page, user);
  await page.goto("/profile");
  await page.getByLabel("Nom complet").fill("Camille Durand");
  await page.getByTestId("profile-save").click();
  await expect(page.locator(".ant-message")).toContainText("Profil enregistré");
  await page.reload();
  await expect(page.getByLabel("Nom complet")).toHaveValue("Camille Durand");
  await page.goto("/dashboard");
  await expect(page.getByTestId("dashboard-greeting")).toContainText("Camille Durand");

  await page.goto("/change-password");
  await page.getByLabel("Mot de passe actuel").fill("pas-le-bon-mot!");
  await page.getByLabel("Nouveau mot de passe", { exact: true }).fill("Encore-neuf-2026!");
  await page.getByLabel("Confirmez le nouveau mot de passe").fill("Encore-neuf-2026!");
  await page.getByRole("button", { name: "Changer le mot de passe" }).click();
  await expect(page.getByText("Le mot de passe actuel est incorrect.")).toBeVisible();
  await page.getByLabel("Mot de passe actuel").fill(user.password);
  await page.getByRole("button", { name: "Changer le mot de passe" }).click();
  await expect(page.locator(".ant-message")).toContainText("Mot de passe modifié");
  const fresh = await request.post("/api/v1/user/authenticate", {
    data: { username: user.email, password: "Encore-neuf-2026!" },
  });
  expect(fresh.status()).toBe(200);
});
