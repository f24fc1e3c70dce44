import { violations } from "../support/axe";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, passwordToSecondStep, signIn, signOutHere } from "../support/session";
import { totpCode } from "../support/totp";

test("authenticator app: set up in the profile, then a sign-in asks for its code", async ({
  page,
  request,
}) => {
  const user = await createLearner(request, "totp");
  await signIn(page, user);
  await page.goto("/profile");
  const card = page.getByTestId("two-factor-card");
  await expect(card.getByTestId("two-factor-state")).toHaveText("Désactivée");
  await card.getByRole("button", { name: "Configurer une application" }).click();

  const dialog = page.getByRole("dialog", { name: "Configurer une application d'authentification" });
  await expect(dialog.getByRole("img", { name: /QR code/ })).toBeVisible();
  const secret = (await dialog.getByTestId("totp-secret").innerText()).trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await dialog.getByLabel("Code à 6 chiffres de l'application").fill("000000");
  await dialog.getByRole("button", { name: "Activer" }).click();
  await expect(dialog.getByText("Ce code n'est pas valide.")).toBeVisible();
  await dialog.getByLabel("Code à 6 chiffres de l'application").fill(totpCode(secret));
  await dialog.getByRole("button", { name: "Activer" }).click();

  const codes = dialog.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  expect(await violations(page)).toEqual([]);
  await dialog.getByRole("button", { name: "J'ai gardé mes codes" }).click();
  await expect(card.getByTestId("two-factor-state")).toHaveText("Activée");
  await expect(card.getByTestId("recovery-left")).toContainText("10 codes de secours restants");

  // a new browser: password, then the code of the app (the next one: the setup's is spent)
  await signOutHere(page);
  const step = await passwordToSecondStep(page, user);
  expect(await violations(page)).toEqual([]);
  // by keyboard: the code field has the focus, Enter sends it
  await expect(step.getByLabel("Code à 6 chiffres de l'application")).toBeFocused();
  await page.keyboard.type(totpCode(secret, 1));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("settings-button")).toBeVisible();
});

test("a recovery code signs in once, in English", async ({ page, request }) => {
  const user = await createLearner(request, "recovery");
  const headers = { authorization: `Bearer ${await apiToken(request, user)}` };
  const setup = await request.post("/api/v1/user/me/two-factor/totp/setup", { headers });
  const { secret } = ((await setup.json()) as { data: { secret: string } }).data;
  const enable = await request.post("/api/v1/user/me/two-factor/totp/enable", {
    headers,
    data: { code: totpCode(secret) },
  });
  const [code] = ((await enable.json()) as { data: { recoveryCodes: string[] } }).data.recoveryCodes;

  await page.goto("/en/auth/login");
  const form = page.getByTestId("login-form");
  await form.getByLabel("Email").fill(user.email);
  await form.getByLabel("Password").fill(user.password);
  await page.getByTestId("login-submit").click();
  await page.getByRole("button", { name: "Use a recovery code" }).click();
  await page.getByLabel("Recovery code").fill(code ?? "");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/en\/dashboard$/);
});
