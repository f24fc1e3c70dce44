import type { CDPSession, Page } from "@playwright/test";
import { violations } from "../support/axe";
import { ADMIN } from "../support/env";
import { lock } from "../support/exclusive";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, passwordToSecondStep, signIn, signOutHere } from "../support/session";

// browsers refuse an address (127.0.0.1) as a passkey's relying party: this spec uses the name the
// server's PASSKEY_ORIGIN gives (e2e/global-setup.ts)
test.use({ baseURL: `http://localhost:${Number(process.env.E2E_PORT ?? 3100)}` });

/** Chromium's virtual authenticator: a platform passkey that verifies its user. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

test("a passkey registered in the profile signs in alone, then as the second step after the password", async ({
  page,
  request,
}) => {
  // three sign-ins and two visits of the profile: more than the default 45 s on a busy 2-core machine
  test.setTimeout(120_000);
  const { cdp, authenticatorId } = await virtualAuthenticator(page);

  const user = await createLearner(request, "passkey");
  await signIn(page, user);
  await page.goto("/profile");
  const card = page.getByTestId("passkeys-card");
  await expect(card.getByText("Aucune clé d'accès pour le moment.")).toBeVisible();
  await card.getByRole("button", { name: "Ajouter une clé d'accès" }).click();
  const dialog = page.getByRole("dialog", { name: "Ajouter une clé d'accès" });
  await dialog.getByLabel("Nom de la clé d'accès").fill("Mon ordinateur");
  await dialog.getByRole("button", { name: "Créer la clé d'accès" }).click();
  await expect(dialog).toBeHidden();
  const item = card.getByTestId("passkey-item");
  await expect(item).toHaveCount(1);
  await expect(item).toContainText("Mon ordinateur");
  await expect(item.getByTestId("passkey-last-used")).toHaveText("jamais utilisée");
  expect(await violations(page)).toEqual([]);
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]?.isResidentCredential).toBe(true);
  // the passkey protects the account: the two-step card says so, without an app, in each language
  const twoFactor = page.getByTestId("two-factor-card");
  await expect(twoFactor.getByTestId("two-factor-state")).toHaveText("Activée");
  await expect(twoFactor.getByTestId("two-factor-summary")).toHaveText(
    "avec 1 clé d'accès. Vous pouvez aussi ajouter une application d'authentification.",
  );
  for (const [prefix, state, summary] of [
    ["/en", "On", "with 1 passkey. You may also add an authenticator app."],
    ["/es", "Activada", "con 1 llave de acceso. También puedes añadir una aplicación de autenticación."],
  ] as const) {
    await page.goto(`${prefix}/profile`);
    await expect(twoFactor.getByTestId("two-factor-state")).toHaveText(state);
    await expect(twoFactor.getByTestId("two-factor-summary")).toHaveText(summary);
  }

  // signed out: the passkey alone opens a session, no address typed
  await signOutHere(page);
  await page.goto("/auth/login");
  await page.getByRole("button", { name: "Se connecter avec une clé d'accès" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("settings-button")).toBeVisible();

  // signed out again: the password, then the passkey as the second step
  await signOutHere(page);
  const step = await passwordToSecondStep(page, user);
  expect(await violations(page)).toEqual([]);
  await step.getByRole("button", { name: "Utiliser une clé d'accès" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("settings-button")).toBeVisible();

  // the profile shows its last use; renamed, then removed after a confirmation
  await page.goto("/profile");
  await expect(item.getByTestId("passkey-last-used")).toContainText("utilisée le");
  await item.getByRole("button", { name: "Renommer" }).click();
  const rename = page.getByRole("dialog", { name: "Renommer la clé d'accès" });
  await rename.getByLabel("Nom de la clé d'accès").fill("Portable");
  await rename.getByRole("button", { name: "Enregistrer" }).click();
  await expect(item).toContainText("Portable");
  await item.getByRole("button", { name: "Supprimer" }).click();
  const confirm = page.getByRole("dialog", { name: "Supprimer la clé d'accès « Portable » ?" });
  await confirm.getByRole("button", { name: "Supprimer" }).click();
  await expect(card.getByText("Aucune clé d'accès pour le moment.")).toBeVisible();
});

test("staff who must set a second factor up at sign-in may create a passkey there", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  // the setting asks every staff account (the seeded admin too): one test at a time changes it
  const release = await lock("settings");
  const adminToken = await apiToken(request, ADMIN);
  const headers = { authorization: `Bearer ${adminToken}` };
  const setRequired = (on: boolean) =>
    request.post("/api/v1/settings", { headers, data: { staff_two_factor_required: on } });
  const email = `staff.passkey.${Date.now()}@e2e.test`;
  const staff = { email, password: "Bonjour-2026!" };
  const created = await request.post("/api/v1/users/add", {
    headers,
    data: { email, password: staff.password, role: "ADMIN", full_name: "Staff Passkey" },
  });
  expect(created.status(), await created.text()).toBe(201);
  try {
    expect((await setRequired(true)).status()).toBe(200);
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await page.goto("/auth/login");
    const form = page.getByTestId("login-form");
    await form.getByLabel("E-mail").fill(staff.email);
    await form.getByLabel("Mot de passe").fill(staff.password);
    await page.getByTestId("login-submit").click();
    const step = page.getByTestId("second-factor-step");
    await expect(
      step.getByRole("heading", { name: "Configurez la vérification en deux étapes" }),
    ).toBeVisible();
    // both ways are offered: a passkey, or the authenticator app's QR code
    await expect(step.getByRole("heading", { name: "Avec une clé d'accès" })).toBeVisible();
    await expect(
      step.getByRole("heading", { name: "Avec une application d'authentification" }),
    ).toBeVisible();
    await expect(step.getByTestId("totp-setup")).toBeVisible();
    expect(await violations(page)).toEqual([]);
    const setup = step.getByTestId("passkey-setup");
    await setup.getByLabel("Nom de la clé d'accès").fill("Clé du bureau");
    await setup.getByRole("button", { name: "Créer la clé d'accès" }).click();
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
    await expect(page.getByTestId("settings-button")).toBeVisible();
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);

    // the profile lists it, and the two-step card reads on
    await page.goto("/profile");
    await expect(page.getByTestId("passkey-item")).toContainText("Clé du bureau");
    await expect(page.getByTestId("two-factor-state")).toHaveText("Activée");

    // the next sign-in asks for that passkey, which answers it
    await signOutHere(page);
    const next = await passwordToSecondStep(page, staff);
    await next.getByRole("button", { name: "Utiliser une clé d'accès" }).click();
    await expect(page).toHaveURL(/\/dashboard$/, { timeout: 30_000 });
  } finally {
    await setRequired(false);
    release();
  }
});
