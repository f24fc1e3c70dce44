import { type APIRequestContext, expect, type Page } from "@playwright/test";
import { linkFromMail } from "./mail";

export interface Account {
  email: string;
  password: string;
}

/** A new learner, active: signed up through the API and activated with the mailed link. */
/** A learner signed up and activated; `speak`: the language they speak (FR by default). */
export async function createLearner(
  request: APIRequestContext,
  prefix = "learner",
  speak: "FR" | "EN" | "ES" = "FR",
): Promise<Account> {
  const email = `${prefix}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@e2e.test`;
  const password = "Bonjour-2026!";
  const res = await request.post("/api/v1/user/self-register", { data: { email, password, speak } });
  expect(res.status(), await res.text()).toBe(201);
  const link = await linkFromMail(email, /\/activate\/[\w-]+/);
  const activation = await request.get(`/api/v1/user/account-activate/${link.split("/activate/")[1]}`);
  expect(activation.ok(), await activation.text()).toBe(true);
  return { email, password };
}

/**
 * Signs in through the API in the page's own context (which keeps the session cookies, as the
 * login form would) and opens the dashboard, where the app restores the session: one page load
 * instead of the login page's and the dashboard's. The login form itself is tested in
 * auth.spec.ts (and by keyboard in keyboard.spec.ts); `signInWithForm` is the form's way.
 */
export async function signIn(page: Page, account: Account): Promise<void> {
  const res = await page.request.post("/api/v1/user/authenticate", {
    data: { username: account.email, password: account.password },
  });
  expect(res.ok(), await res.text()).toBe(true);
  // what the login form leaves in the browser: the app restores a session only where one was opened
  // (lib/session.ts, `auth.loggedIn`); a plain file of the origin, so no app starts for it
  await page.goto("/robots.txt");
  await page.evaluate(() => localStorage.setItem("auth.loggedIn", "true"));
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
  // the session restored: its refresh answered and its rotated cookie kept. Leaving earlier could
  // cut that answer off, and the next page would then offer a refresh token already used
  await expect(page.getByTestId("settings-button")).toBeVisible();
}

/** Signs in on the login page (French) and waits for the dashboard. */
export async function signInWithForm(page: Page, account: Account): Promise<void> {
  await page.goto("/auth/login");
  const form = page.getByTestId("login-form");
  await form.getByLabel("E-mail").fill(account.email);
  await form.getByLabel("Mot de passe").fill(account.password);
  await page.getByTestId("login-submit").click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Signs out in this browser (its cookies and storage gone), as a new browser would be. */
export async function signOutHere(page: Page): Promise<void> {
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
}

/** The password on the login page (French) of an account with a second factor: its step, shown. */
export async function passwordToSecondStep(page: Page, account: Account) {
  await page.goto("/auth/login");
  const form = page.getByTestId("login-form");
  await form.getByLabel("E-mail").fill(account.email);
  await form.getByLabel("Mot de passe").fill(account.password);
  await page.getByTestId("login-submit").click();
  const step = page.getByTestId("second-factor-step");
  await expect(step.getByRole("heading", { name: "Vérification en deux étapes" })).toBeVisible();
  return step;
}

/** An access token for API calls made by the test itself. */
export async function apiToken(request: APIRequestContext, account: Account): Promise<string> {
  const res = await request.post("/api/v1/user/authenticate", {
    data: { username: account.email, password: account.password },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
}
