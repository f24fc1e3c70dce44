import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { signIn } from "../support/session";

test("the footer leads to the legal pages, rendered by the server in French and English", async ({
  page,
  request,
}) => {
  // the HTML itself carries the text (read without running any script)
  const html = await (await request.get("/legal/legal-notice")).text();
  expect(html).toContain("Mentions légales");
  expect(html).toContain("Éditeur du site");
  // a company detail not given yet is never shown as a blank to fill
  expect(html).not.toMatch(/\[(raison sociale|SIRET|hébergeur|capital)[^\]]*\]|\{\{/);

  await page.goto("/");
  const footer = page.locator("footer");
  for (const [id, title] of [
    ["footer-privacy", "Politique de confidentialité"],
    ["footer-terms", "Conditions générales de vente et d'utilisation"],
    ["footer-cookies", "Cookies"],
    ["footer-legal-notice", "Mentions légales"],
  ] as const) {
    await footer.getByTestId(id).click();
    await expect(page.getByTestId("legal-page").getByRole("heading", { level: 1 })).toHaveText(title);
  }
  await expect(page).toHaveURL(/\/legal\/legal-notice$/);

  const en = await page.goto("/en/legal/privacy");
  expect(en?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Privacy policy");
  await page.locator("footer").getByTestId("footer-cookies").click();
  await expect(page).toHaveURL(/\/en\/legal\/cookies$/);
  await expect(page.getByTestId("legal-page")).toContainText("No analytics, no advertising");

  const missing = await page.goto("/en/legal/nope");
  expect(missing?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toBeVisible();
});

test("staff see which legal details are missing; visitors never do", async ({ page }) => {
  await page.goto("/legal/legal-notice");
  await expect(page.getByTestId("legal-page")).toContainText("Éditeur du site");
  await expect(page.getByTestId("legal-missing")).toHaveCount(0);

  await signIn(page, ADMIN);
  await page.goto("/legal/legal-notice");
  const banner = page.getByTestId("legal-missing");
  await expect(banner).toContainText("Informations légales à compléter");
  await expect(banner).toContainText("SIRET");
  await expect(banner.getByRole("link")).toHaveAttribute("href", "/configs");
});
