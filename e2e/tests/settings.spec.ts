import type { APIRequestContext, Page } from "@playwright/test";
import { ADMIN } from "../support/env";
import { lock } from "../support/exclusive";
import { expect, test } from "../support/fixtures";

// The site's settings change what every page shows: one test at a time changes them.
let release: (() => void) | undefined;
test.beforeEach(async () => {
  release = await lock("settings");
});
test.afterEach(() => release?.());

interface Setting {
  audio_source: { type: "server" | "cdn"; base_url: string | null };
  contact_email: string;
  support_url: string | null;
  default_locale: "fr" | "en";
  registrations_open: boolean;
}

async function currentSetting(request: APIRequestContext): Promise<Setting> {
  const res = await request.get("/api/v1/settings");
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { data: { setting: Setting } }).data.setting;
}

/** Other tests share this server (and sign up learners): put every setting back as it was. */
async function restore(request: APIRequestContext, setting: Setting) {
  const auth = await request.post("/api/v1/user/authenticate", {
    data: { username: ADMIN.email, password: ADMIN.password },
  });
  const token = ((await auth.json()) as { data: { accessToken: string } }).data.accessToken;
  const res = await request.post("/api/v1/settings", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      audio_source: setting.audio_source,
      contact_email: setting.contact_email,
      support_url: setting.support_url,
      default_locale: setting.default_locale,
      registrations_open: true,
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

async function login(page: Page) {
  await page.goto("/auth/login");
  const form = page.getByTestId("login-form");
  await form.getByLabel("E-mail").fill(ADMIN.email);
  await form.getByLabel("Mot de passe").fill(ADMIN.password);
  await page.getByTestId("login-submit").click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("an admin changes the contact address in the settings; the contact page shows it", async ({
  page,
  request,
}) => {
  const before = await currentSetting(request);
  const address = `contact.${Date.now()}@e2e.test`;
  try {
    await login(page);
    await page.goto("/setting");
    const form = page.getByTestId("settings-form");
    await expect(form).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Paramètres" })).toBeVisible();
    const email = form.getByLabel("Adresse de contact");
    await expect(email).toHaveValue(before.contact_email);

    // the form checks the address before sending it
    await email.fill("pas-une-adresse");
    await page.getByTestId("settings-save").click();
    await expect(form.getByText("Veuillez saisir une adresse e-mail valide")).toBeVisible();

    // the CDN base URL field appears only for the CDN source, and wants https
    await expect(form.getByLabel("URL de base du CDN")).toHaveCount(0);
    await form.getByText("CDN", { exact: true }).click();
    await form.getByLabel("URL de base du CDN").fill("http://cdn.example.com");
    await page.getByTestId("settings-save").click();
    await expect(
      form.getByText("L'URL doit commencer par https:// (http:// seulement pour localhost)"),
    ).toBeVisible();
    await form.getByText("Ce serveur", { exact: true }).click();
    await expect(form.getByLabel("URL de base du CDN")).toHaveCount(0);

    await email.fill(address);
    await page.getByTestId("settings-save").click();
    await expect(page.locator(".ant-message").getByText("Paramètres enregistrés")).toBeVisible();

    await page.reload();
    await expect(page.getByTestId("settings-form").getByLabel("Adresse de contact")).toHaveValue(address);
    expect((await currentSetting(request)).contact_email).toBe(address);

    await page.goto("/contact");
    await expect(page.getByTestId("contact-email")).toHaveText(address);
    await expect(page.getByTestId("contact-email")).toHaveAttribute("href", `mailto:${address}`);
  } finally {
    await restore(request, before);
  }
  expect(await currentSetting(request)).toMatchObject({
    contact_email: before.contact_email,
    registrations_open: true,
  });
});
