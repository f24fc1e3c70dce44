import type { APIRequestContext, Locator, Page } from "@playwright/test";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, signIn } from "../support/session";

function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** `GET /v1/user/me` with a token, as an API client would. */
function me(request: APIRequestContext, token: string) {
  return request.get("/api/v1/user/me", { headers: { Authorization: `Bearer ${token}` } });
}

/** The row of the users table that shows this email, after a search for it. */
async function findUser(page: Page, email: string): Promise<Locator> {
  const table = page.getByTestId("users-table");
  await expect(table).toBeVisible();
  await page.getByTestId("users-search").fill(email);
  // the search is debounced, then kept in the URL
  await expect(page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(email).replace(/\./g, "\\.")}`));
  const row = table.locator("tbody tr").filter({ hasText: email });
  await expect(row).toHaveCount(1);
  return row;
}

test("an admin finds a learner, disables them (their token is refused at once) and enables them again", async ({
  page,
  request,
}) => {
  const learner = await createLearner(request, "users");
  const token = await apiToken(request, learner);
  expect((await me(request, token)).status()).toBe(200);

  await signIn(page, ADMIN);
  await page.goto("/User");
  await expect(page.getByRole("heading", { level: 1, name: "Utilisateurs" })).toBeVisible();
  const row = await findUser(page, learner.email);
  await expect(row.getByTestId("user-status")).toHaveText("Actif");
  // the role by its name in the page's language, not its code
  await expect(row.getByTestId("user-role")).toHaveText("Apprenant");
  await expect(row.getByTestId("user-role")).toHaveAttribute("data-role", "CUSTOMER");
  await expect(row.getByTestId("user-approve")).toHaveCount(0);

  // disabling asks first: cancel keeps the account active
  await row.getByTestId("user-disable").click();
  let dialog = page.getByRole("dialog").filter({ hasText: "Ses sessions prennent fin immédiatement" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Annuler" }).click();
  await expect(dialog).toBeHidden();
  await expect(row.getByTestId("user-status")).toHaveText("Actif");

  await row.getByTestId("user-disable").click();
  dialog = page.getByRole("dialog").filter({ hasText: "Ses sessions prennent fin immédiatement" });
  await dialog.getByRole("button", { name: "Désactiver" }).click();
  await expect(row.getByTestId("user-status")).toHaveText("Désactivé");
  await expect(row.getByTestId("user-status")).toHaveAttribute("data-status", "DISABLED");
  await expect(page.locator(".ant-message")).toContainText("est désactivé");

  // the learner's access token is refused right away, and they cannot sign in again
  expect((await me(request, token)).status()).toBe(401);
  const login = await request.post("/api/v1/user/authenticate", {
    data: { username: learner.email, password: learner.password },
  });
  expect(login.ok()).toBe(false);

  // the status filter finds them among the disabled accounts
  await page.getByTestId("users-status-filter").click();
  // antd's virtual list exposes only some options to assistive tech: pick the visible item
  await page.locator(".ant-select-dropdown .ant-select-item-option[title='Désactivé']").click();
  await expect(page).toHaveURL(/status=DISABLED/);
  await expect(row).toBeVisible();

  await row.getByTestId("user-enable").click();
  await expect(page.getByTestId("users-table").locator("tbody")).not.toContainText(learner.email);
  await page.getByRole("button", { name: "Effacer les filtres" }).click();
  const again = await findUser(page, learner.email);
  await expect(again.getByTestId("user-status")).toHaveText("Actif");
  expect((await me(request, await apiToken(request, learner))).status()).toBe(200);
});

test("an admin approves an account that is still pending", async ({ page, request }) => {
  const email = `${unique("pending.")}@e2e.test`;
  const res = await request.post("/api/v1/user/self-register", {
    data: { email, password: "Bonjour-2026!" },
  });
  expect(res.status(), await res.text()).toBe(201);

  await signIn(page, ADMIN);
  await page.goto("/User?status=PENDING");
  const row = await findUser(page, email);
  await expect(row.getByTestId("user-status")).toHaveText("En attente");
  await row.getByTestId("user-approve").click();
  await expect(page.locator(".ant-message")).toContainText("est approuvé");
  // the list still filters on PENDING: the approved account leaves it
  await expect(page.getByTestId("users-table").locator("tbody")).not.toContainText(email);
  await page.goto(`/User?q=${encodeURIComponent(email)}`);
  await expect(
    page.getByTestId("users-table").locator("tbody tr").filter({ hasText: email }).getByTestId("user-status"),
  ).toHaveText("Actif");
  const login = await request.post("/api/v1/user/authenticate", {
    data: { username: email, password: "Bonjour-2026!" },
  });
  expect(login.ok(), await login.text()).toBe(true);
});

test("an admin creates a customer from /User/create and finds it; a used email is refused on the field", async ({
  page,
}) => {
  const email = `${unique("created.")}@e2e.test`;
  await signIn(page, ADMIN);
  await page.goto("/User/create");
  const form = page.getByTestId("user-form");
  await expect(form).toBeVisible();
  await expect(form.getByLabel("Rôle")).toBeVisible();
  await expect(form.getByTitle("Apprenant")).toBeVisible();

  // the spec's password rules run before anything is sent
  await form.getByLabel("E-mail").fill(email);
  await form.getByLabel("Mot de passe").fill("court");
  await page.getByTestId("user-save").click();
  await expect(form.getByText("Au moins 8 caractères", { exact: true })).toBeVisible();
  await form.getByLabel("Mot de passe").fill("longenough1");
  await page.getByTestId("user-save").click();
  await expect(form.getByText("Doit contenir au moins un caractère spécial")).toBeVisible();

  await form.getByLabel("Mot de passe").fill("Bienvenue-2026!");
  await form.getByLabel("Nom complet").fill("Camille Créée");
  await form.getByText("English", { exact: true }).click();
  await page.getByTestId("user-save").click();

  await expect(page).toHaveURL(/\/User\?q=/);
  await expect(page.locator(".ant-message")).toContainText(`Utilisateur ${email} créé.`);
  const row = page.getByTestId("users-table").locator("tbody tr").filter({ hasText: email });
  await expect(row).toContainText("Camille Créée");
  await expect(row.getByTestId("user-role")).toHaveText("Apprenant");
  await expect(row.getByTestId("user-status")).toHaveText("Actif");

  // the customers' list shows it too
  await page.goto(`/User/customers?q=${encodeURIComponent(email)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Clients" })).toBeVisible();
  await expect(page.getByTestId("users-table").locator("tbody tr").filter({ hasText: email })).toHaveCount(1);

  // the same email again: 409, shown on the email field
  await page.goto("/User/create");
  await form.getByLabel("E-mail").fill(email);
  await form.getByLabel("Mot de passe").fill("Bienvenue-2026!");
  await page.getByTestId("user-save").click();
  await expect(form.getByText("Cette adresse e-mail est déjà utilisée par un autre compte.")).toBeVisible();
  await expect(page).toHaveURL(/\/User\/create$/);
});

test("an admin edits a user; their own role and status are locked", async ({ page, request }) => {
  const learner = await createLearner(request, "edit");
  await signIn(page, ADMIN);

  // without an id, back to the list
  await page.goto("/User/edit");
  await expect(page).toHaveURL(/\/User$/);

  const row = await findUser(page, learner.email);
  await row.getByTestId("user-edit").click();
  await expect(page).toHaveURL(/\/User\/edit\/[\w-]+$/);
  const form = page.getByTestId("user-form");
  await expect(form.getByLabel("Rôle")).toBeEnabled();
  await form.getByLabel("Nom complet").fill("Léa Modifiée");
  await page.getByTestId("user-save").click();
  await expect(page.locator(".ant-message")).toContainText("Utilisateur enregistré.");
  await expect(page).toHaveURL(/\/User$/);
  const edited = await findUser(page, learner.email);
  await expect(edited).toContainText("Léa Modifiée");

  // one's own account
  const admin = await findUser(page, ADMIN.email);
  await expect(admin.getByTestId("user-disable")).toHaveCount(0);
  await admin.getByTestId("user-edit").click();
  await expect(page.getByTestId("user-self-note")).toBeVisible();
  await expect(form.getByLabel("Rôle")).toBeDisabled();
  await expect(form.getByLabel("Statut")).toBeDisabled();
});

test("an admin creates a role with one permission and deletes it; built-in and used roles stay", async ({
  page,
  request,
}) => {
  const title = unique("E2E_").toUpperCase();
  await signIn(page, ADMIN);
  await page.goto("/User/roles");
  await expect(page.getByRole("heading", { level: 1, name: "Rôles" })).toBeVisible();
  const table = page.getByTestId("roles-table");
  const adminRow = table.locator("tbody tr").filter({ has: page.getByText("ADMIN", { exact: true }) });
  await expect(adminRow.getByTestId("role-built-in")).toHaveText("Intégré");
  await expect(adminRow.getByTestId("role-delete")).toBeDisabled();
  await expect(adminRow).toContainText("Rôle intégré : suppression impossible");

  // create: the title is upper-cased and checked before sending
  await page.getByTestId("role-create").click();
  const form = page.getByTestId("role-form");
  await form.getByLabel("Titre").fill("avec espace");
  await page.getByTestId("role-save").click();
  await expect(form.getByText("Utilisez uniquement des majuscules")).toBeVisible();
  await form.getByLabel("Titre").fill(title.toLowerCase());
  await expect(form.getByLabel("Titre")).toHaveValue(title);
  await form.getByLabel("Description").fill("Rôle de test e2e");
  await form.getByRole("checkbox", { name: /users\.read/ }).check();
  await page.getByTestId("role-save").click();
  await expect(page.locator(".ant-message")).toContainText(`Rôle ${title} créé.`);
  const row = table.locator("tbody tr").filter({ hasText: title });
  await expect(row).toContainText("users.read");
  await expect(row).toContainText("Rôle de test e2e");

  // a role held by a user is not deleted, and the page says why
  const auth = await request.post("/api/v1/user/authenticate", {
    data: { username: ADMIN.email, password: ADMIN.password },
  });
  const token = ((await auth.json()) as { data: { accessToken: string } }).data.accessToken;
  const holder = await request.post("/api/v1/users/add", {
    headers: { Authorization: `Bearer ${token}` },
    data: { email: `${unique("holder.")}@e2e.test`, password: "Bienvenue-2026!", role: title },
  });
  expect(holder.status(), await holder.text()).toBe(201);
  const holderId = ((await holder.json()) as { data: { user: { id: string } } }).data.user.id;
  await row.getByTestId("role-delete").click();
  await page.getByRole("dialog").getByRole("button", { name: "Supprimer" }).click();
  await expect(page.getByTestId("roles-error")).toContainText(
    `${title} est encore attribué à des utilisateurs`,
  );
  await expect(row).toBeVisible();

  // once nobody holds it, it goes
  const moved = await request.post(`/api/v1/users/update/${holderId}`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { role: "CUSTOMER" },
  });
  expect(moved.ok(), await moved.text()).toBe(true);
  await row.getByTestId("role-delete").click();
  await page.getByRole("dialog").getByRole("button", { name: "Supprimer" }).click();
  await expect(page.locator(".ant-message")).toContainText(`Rôle ${title} supprimé.`);
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId("roles-error")).toHaveCount(0);
});
