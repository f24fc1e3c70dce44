import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "../support/fixtures";
import { linkFromMail } from "../support/mail";

/** An active learner created through the API (sign-up, then the mailed activation link). */
async function learner(request: APIRequestContext) {
  const email = `account.${Date.now()}.${Math.floor(Math.random() * 1e6)}@e2e.test`;
  const password = "Bonjour-2026!";
  expect((await request.post("/api/v1/user/self-register", { data: { email, password } })).status()).toBe(
    201,
  );
  const link = await linkFromMail(email, /\/activate\/[\w-]+/);
  expect((await request.get(`/api/v1/user/account-activate/${link.split("/activate/")[1]}`)).ok()).toBe(true);
  return { email, password };
}

async function login(page: Page, email: string, password: string) {
  await page.goto("/auth/login");
  const form = page.getByTestId("login-form");
  await form.getByLabel("E-mail").fill(email);
  await form.getByLabel("Mot de passe").fill(password);
  await page.getByTestId("login-submit").click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("forgotten password: mailed link, new password, the old one stops working, the link works once", async ({
  page,
  request,
}) => {
  const user = await learner(request);
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
  await login(page, user.email, "Nouveau-mot-2026!");
});

test("profile and password change from the app", async ({ page, request }) => {
  const user = await learner(request);
  await login(page, user.email, user.password);
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
