import type { APIRequestContext } from "@playwright/test";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { type Account, apiToken, signIn } from "../support/session";

/**
 * The grant ceiling on the staff screens: what the API would refuse a staff member (403
 * ABOVE_YOUR_PERMISSIONS) is not offered, and when it happens anyway the page says why in the
 * reader's language.
 */

const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const PASSWORD = "Bienvenue-2026!";

async function asAdmin(request: APIRequestContext) {
  const token = await apiToken(request, ADMIN);
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async role(title: string, permissions: string[]) {
      const res = await request.post("/api/v1/api/role", { headers, data: { title, permissions } });
      expect(res.status(), await res.text()).toBe(201);
    },
    async user(role: string, prefix: string): Promise<Account & { id: string }> {
      const email = `${prefix}.${tag}@e2e.test`;
      const res = await request.post("/api/v1/users/add", {
        headers,
        data: { email, password: PASSWORD, role, full_name: `${prefix} ${tag}` },
      });
      expect(res.status(), await res.text()).toBe(201);
      return {
        email,
        password: PASSWORD,
        id: ((await res.json()) as { data: { user: { id: string } } }).data.user.id,
      };
    },
  };
}

test("a desk role with users.manage is not offered ADMIN, sees an admin locked, and reads why a change is refused", async ({
  page,
  request,
}) => {
  const admin = await asAdmin(request);
  await admin.role(`DESK_${tag}`.toUpperCase(), ["users.read", "users.manage"]);
  await admin.role(`AUDIT_${tag}`.toUpperCase(), ["audit.read"]);
  const desk = await admin.user(`DESK_${tag}`.toUpperCase(), "desk");
  const otherAdmin = await admin.user("ADMIN", "boss");
  const auditor = await admin.user(`AUDIT_${tag}`.toUpperCase(), "auditor");
  await signIn(page, desk);

  // creating an account: ADMIN is not among the roles offered
  await page.goto("/User/create");
  const form = page.getByTestId("user-form");
  await form.getByLabel("Rôle").click();
  const options = page.locator(".ant-select-dropdown .ant-select-item-option");
  await expect(options.filter({ hasText: "Apprenant" })).toHaveCount(1);
  await expect(options.filter({ hasText: "Administrateur" })).toHaveCount(0);

  // an admin in the list: no approve, disable or enable; the edit page says why it is locked
  await page.goto(`/User?q=${encodeURIComponent(otherAdmin.email)}`);
  const row = page.getByTestId("users-table").locator("tbody tr").filter({ hasText: otherAdmin.email });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("user-disable")).toHaveCount(0);
  await row.getByTestId("user-edit").click();
  await expect(page.getByTestId("user-above-you")).toContainText(
    "Ce compte a des droits que vous n'avez pas",
  );
  await expect(page.getByTestId("user-save")).toBeDisabled();
  await expect(page.getByTestId("user-form").getByLabel("Nom complet")).toBeDisabled();

  // an account whose role the desk cannot read (no roles.manage): the API refuses, the page translates
  await page.goto(`/User/edit/${auditor.id}`);
  await page.getByTestId("user-form").getByLabel("Nom complet").fill("Renommé");
  await page.getByTestId("user-save").click();
  await expect(page.getByTestId("user-form-error")).toContainText(
    "Vous ne pouvez pas donner des droits que vous n'avez pas, ni agir sur un compte qui en a",
  );
  const check = await request.get(`/api/v1/users/${auditor.id}`, {
    headers: { Authorization: `Bearer ${await apiToken(request, ADMIN)}` },
  });
  expect(((await check.json()) as { data: { user: { full_name: string } } }).data.user.full_name).not.toBe(
    "Renommé",
  );
});

test("a role maker gives only the permissions they hold and cannot delete a role above them", async ({
  page,
  request,
}) => {
  const admin = await asAdmin(request);
  const above = `ABOVE_${tag}`.toUpperCase();
  await admin.role(`MAKER_${tag}`.toUpperCase(), ["roles.manage", "users.read"]);
  await admin.role(above, ["audit.read"]);
  const maker = await admin.user(`MAKER_${tag}`.toUpperCase(), "maker");
  await signIn(page, maker);

  await page.goto("/User/roles");
  const aboveRow = page.getByTestId("roles-table").locator("tbody tr").filter({ hasText: above });
  await expect(aboveRow.getByTestId("role-delete")).toBeDisabled();
  await expect(aboveRow).toContainText("A des droits que vous n'avez pas");

  await page.getByTestId("role-create").click();
  const form = page.getByTestId("role-form");
  await expect(form).toContainText("Vous ne pouvez donner que les permissions que vous avez vous-même.");
  // each checkbox is named by its slug and its description
  const permission = (slug: string) =>
    form.getByRole("checkbox", { name: new RegExp(`^${slug.replace(".", "\\.")}\\b`) });
  await expect(permission("audit.read")).toBeDisabled();
  await expect(permission("users.read")).toBeEnabled();
  await expect(permission("learn")).toBeEnabled();
});
