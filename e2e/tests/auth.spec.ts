import type { Page } from "@playwright/test";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { linkFromMail } from "../support/mail";
import { signInWithForm } from "../support/session";

const unique = () => `learner.${Date.now()}.${Math.floor(Math.random() * 1e6)}@e2e.test`;

async function loginInModal(page: Page, email: string, password: string) {
  await page.getByTestId("header-login").click();
  const dialog = page.getByRole("dialog", { name: "Connexion" });
  await dialog.getByLabel("E-mail").fill(email);
  await dialog.getByLabel("Mot de passe").fill(password);
  await dialog.getByTestId("login-submit").click();
}

test("sign up, activate by mail, log in, dashboard, switch language, log out", async ({ page }) => {
  const email = unique();
  const password = "Bonjour-2026!";
  await page.goto("/");
  await page.getByTestId("header-signup").click();
  const signup = page.getByRole("dialog", { name: "Créer un compte" });
  await expect(signup).toBeVisible();

  // spec §5 validation messages, in French
  await signup.getByLabel("E-mail").fill("pas-un-email");
  await signup.getByLabel("Mot de passe").fill("court");
  await signup.getByTestId("signup-submit").click();
  await expect(signup.getByText("Veuillez saisir une adresse e-mail valide")).toBeVisible();
  await expect(signup.getByText("Au moins 8 caractères", { exact: true })).toBeVisible();
  await signup.getByLabel("Mot de passe").fill("longenough1");
  await expect(signup.getByText("Doit contenir au moins un caractère spécial")).toBeVisible();

  await signup.getByLabel("E-mail").fill(email);
  await signup.getByLabel("Mot de passe").fill(password);
  await signup.getByTestId("signup-submit").click();
  await expect(page.getByTestId("signup-success")).toBeVisible();
  await expect(page.getByTestId("signup-success")).toContainText("Abonnement enregistré");

  // not active yet: login says so
  await page.keyboard.press("Escape");
  await page.goto("/auth/login");
  const form = page.getByTestId("login-form");
  await form.getByLabel("E-mail").fill(email);
  await form.getByLabel("Mot de passe").fill(password);
  await page.getByTestId("login-submit").click();
  await expect(page.getByTestId("not-activated")).toBeVisible();

  // the activation link arrives by SMTP
  const link = await linkFromMail(email, /http:\/\/127\.0\.0\.1:\d+\/activate\/[\w-]+/);
  await page.goto(link);
  await expect(page.getByTestId("activate-success")).toBeVisible();

  await page.goto("/");
  await loginInModal(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("dashboard-greeting")).toBeVisible();
  await expect(page.getByTestId("plan-tag")).toContainText("Découverte");
  await expect(page.getByTestId("upgrade-button")).toBeVisible();
  await expect(page.getByTestId("app-menu")).toBeVisible();

  // English and back, staying on the page; the cookie remembers the choice
  await page.getByTestId("lang-switch").click();
  await expect(page).toHaveURL(/\/en\/dashboard$/);
  await expect(page.getByTestId("plan-tag")).toContainText("Discovery");
  const cookies = await page.context().cookies();
  const lang = cookies.find((c) => c.name === "i18n_redirected");
  expect(lang?.value).toBe("en");
  expect((lang?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(360 * 86400);
  await page.getByTestId("lang-switch").click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page).not.toHaveURL(/\/en\//);

  // log out through the settings drawer, with the confirmation
  await page.getByTestId("settings-button").click();
  await expect(page.getByTestId("drawer-name")).toBeVisible();
  await page.getByTestId("logout-button").click();
  await expect(page.getByText("Êtes-vous sûr de vouloir vous déconnecter ?")).toBeVisible();
  // the confirmation's button says what it does, not "Ok"
  await page.locator(".ant-modal-confirm").getByRole("button", { name: "Se déconnecter" }).click();
  await expect(page.getByTestId("header-login")).toBeVisible();
  expect(await page.evaluate(() => localStorage.length)).toBe(0);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth\/login\?redirect=/);
});

test("a guarded page visited logged out comes back after login", async ({ page }) => {
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/auth\/login\?redirect=%2Fprofile/);
  const form = page.getByTestId("login-form");
  await form.getByLabel("E-mail").fill(ADMIN.email);
  await form.getByLabel("Mot de passe").fill(ADMIN.password);
  await page.getByTestId("login-submit").click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId("profile-save")).toBeVisible();
  // the admin sees Discovery as plan and the administration menu
  await expect(page.getByTestId("plan-tag")).toContainText("Découverte");
  await expect(page.getByTestId("upgrade-button")).toHaveCount(0);
  await expect(page.getByTestId("app-menu").getByText("Administration")).toBeVisible();
});

test("the session survives a reload and an open redirect is refused", async ({ page }) => {
  await page.goto("/auth/login?redirect=https://evil.example/steal");
  const form = page.getByTestId("login-form");
  await form.getByLabel("E-mail").fill(ADMIN.email);
  await form.getByLabel("Mot de passe").fill(ADMIN.password);
  await page.getByTestId("login-submit").click();
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/dashboard$/);
  await page.reload();
  await expect(page.getByTestId("dashboard-greeting")).toBeVisible();
});

test("the wrong password shows the error toast", async ({ page }) => {
  await page.goto("/");
  await loginInModal(page, ADMIN.email, "not-the-password!");
  await expect(page.locator(".ant-message")).toContainText("E-mail ou mot de passe incorrect.");
  await expect(page).not.toHaveURL(/dashboard/);
});

test("language: / redirects to /en with the cookie; pages exist in both locales", async ({
  page,
  context,
}) => {
  await context.addCookies([{ name: "i18n_redirected", value: "en", url: "http://127.0.0.1" }]);
  const res = await page.request.get("/", { maxRedirects: 0 });
  expect(res.status()).toBe(302);
  expect(res.headers().location).toBe("/en");
  await page.goto("/");
  await expect(page).toHaveURL(/\/en$/);
  await expect(page.getByTestId("header-signup")).toHaveText(/Sign up/);
  await page.goto("/en/faqs");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("not-found page, legacy routes and coming-soon pages", async ({ page }) => {
  await page.goto("/une-page-qui-nexiste-pas/plus/loin");
  await expect(page.getByTestId("not-found")).toContainText("Cette page est introuvable");
  await page.goto("/en/nothing/here/at-all");
  await expect(page.getByTestId("not-found")).toContainText("This page could not be found");
  await page.goto("/indexv1");
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await page.goto("/faqs/index_old");
  await expect(page).toHaveURL(/\/faqs$/);
  await page.goto("/login_old");
  await expect(page).toHaveURL(/\/auth\/login$/);
});

test("two tabs restoring the session at the same moment both stay signed in", async ({ page, context }) => {
  await signInWithForm(page, ADMIN);
  const second = await context.newPage();
  for (let round = 0; round < 3; round++) {
    await Promise.all([page.goto("/dashboard"), second.goto("/profile")]);
    await expect(page.getByTestId("dashboard-greeting")).toBeVisible();
    await expect(second.getByTestId("profile-save")).toBeVisible();
  }
  await second.close();
});
