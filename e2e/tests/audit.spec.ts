import type { APIRequestContext } from "@playwright/test";
import { ADMIN } from "../support/env";
import { lock } from "../support/exclusive";
import { expect, test } from "../support/fixtures";

// The site's settings change what every page shows: one test at a time changes them.
let release: (() => void) | undefined;
test.beforeEach(async () => {
  release = await lock("settings");
});
test.afterEach(() => release?.());

async function adminToken(request: APIRequestContext): Promise<string> {
  const auth = await request.post("/api/v1/user/authenticate", {
    data: { username: ADMIN.email, password: ADMIN.password },
  });
  return ((await auth.json()) as { data: { accessToken: string } }).data.accessToken;
}

test("an admin changes a setting, then finds it in the audit log with before and after; a refused sign-in is there too", async ({
  page,
  request,
}) => {
  // one story in many steps: sign-in twice, a settings change, then four views of the log
  test.slow();
  const before = (
    (await (await request.get("/api/v1/settings")).json()) as { data: { setting: { contact_email: string } } }
  ).data.setting.contact_email;
  const address = `audit.${Date.now()}@e2e.test`;
  const stranger = `intruder.${Date.now()}@e2e.test`;
  try {
    // a refused sign-in (unknown address): a security event
    await page.goto("/auth/login");
    const form = page.getByTestId("login-form");
    await form.getByLabel("E-mail").fill(stranger);
    await form.getByLabel("Mot de passe").fill("Not-the-password1!");
    await page.getByTestId("login-submit").click();
    // the refusal has come back (a second submit while the first is in flight would be ignored)
    await expect(page.locator(".ant-message")).toContainText("E-mail ou mot de passe incorrect.");
    await expect(page).toHaveURL(/\/auth\/login$/);

    await form.getByLabel("E-mail").fill(ADMIN.email);
    await form.getByLabel("Mot de passe").fill(ADMIN.password);
    await page.getByTestId("login-submit").click();
    await expect(page).toHaveURL(/\/dashboard$/);

    // a staff action: the contact address changes
    await page.goto("/setting");
    const settings = page.getByTestId("settings-form");
    await settings.getByLabel("Adresse de contact").fill(address);
    await page.getByTestId("settings-save").click();
    await expect(page.locator(".ant-message").getByText("Paramètres enregistrés")).toBeVisible();

    // the audit page, reached from the staff menu
    await page.goto("/dashboard");
    const menu = page.getByTestId("app-menu");
    await menu.getByText("Administration").click();
    // the staff submenu (thirteen entries) reaches below an 860 px window: once it has opened
    // (no transition left), its last entries are scrolled to and clicked where they then are
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"));
    const entry = menu.getByRole("link", { name: /Journal d'audit/ });
    await entry.scrollIntoViewIfNeeded();
    await entry.click();
    await expect(page).toHaveURL(/\/audit$/);
    await expect(page.getByRole("heading", { level: 1, name: "Journal d'audit" })).toBeVisible();
    const table = page.getByTestId("audit-table");

    // filtered on the action: the newest entry is ours, by the admin, with the address before and after
    await page.getByTestId("audit-filter-action").click();
    await page.keyboard.type("Paramètres modifiés");
    await page.keyboard.press("Enter");
    await page.getByTestId("audit-filter-apply").click();
    const first = table.locator("tbody tr.ant-table-row").first();
    await expect(first).toContainText("Paramètres modifiés");
    await expect(first).toContainText(ADMIN.email);
    await first.getByTestId("audit-expand").click();
    const details = table.getByTestId("audit-details").first();
    await expect(details.locator("figure").filter({ hasText: "Avant" })).toContainText(before);
    await expect(details.locator("figure").filter({ hasText: "Après" })).toContainText(address);

    // filtered on the actor's address: sign-ins are left out until asked for, then the refused
    // sign-in shows, without an account
    await page.getByRole("button", { name: "Effacer les filtres" }).click();
    await page.getByTestId("audit-filter-actor").fill(stranger);
    await page.getByTestId("audit-filter-apply").click();
    await expect(table.getByText("Aucune entrée ne correspond à ces filtres.")).toBeVisible();
    await page.getByTestId("audit-filter-sign-ins").check();
    await page.getByTestId("audit-filter-apply").click();
    const refused = table.locator("tbody tr.ant-table-row");
    await expect(refused).toHaveCount(1);
    await expect(refused).toContainText("Connexion refusée");
    await expect(refused).toContainText("Aucun compte");

    // nothing matches: the empty state says so
    await page.getByTestId("audit-filter-actor").fill(`nobody.${Date.now()}@e2e.test`);
    await page.getByTestId("audit-filter-apply").click();
    await expect(table.getByText("Aucune entrée ne correspond à ces filtres.")).toBeVisible();
  } finally {
    const token = await adminToken(request);
    const res = await request.post("/api/v1/settings", {
      headers: { Authorization: `Bearer ${token}` },
      data: { contact_email: before },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
});
