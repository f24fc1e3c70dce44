import { violations } from "../support/axe";
import { expect, test } from "../support/fixtures";
import { createLearner, passwordToSecondStep, signIn, signOutHere } from "../support/session";

// browsers refuse an address (127.0.0.1) as a passkey's relying party: this spec uses the name the
// server's PASSKEY_ORIGIN gives (e2e/global-setup.ts)
test.use({ baseURL: `http://localhost:${Number(process.env.E2E_PORT ?? 3100)}` });

test("a passkey registered in the profile signs in alone, then as the second step after the password", async ({
  page,
  request,
}) => {
  // three sign-ins and two visits of the profile: more than the default 45 s on a busy 2-core machine
  test.setTimeout(120_000);
  // Chromium's virtual authenticator: a platform passkey that verifies its user
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
