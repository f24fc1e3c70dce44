import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { findInMail } from "../support/mail";
import { createLearner, signIn } from "../support/session";

test("an admin writes a template, sends it to learners, follows the progress; the learner gets it with their name", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const learner = await createLearner(request, "mail");
  // self-registered accounts are named after their address
  const name = learner.email.split("@")[0] ?? "";
  const stamp = Date.now();
  const templateName = `Nouvelles ${stamp}`;

  await signIn(page, ADMIN);
  await page.goto("/mail/templates");
  await expect(page.getByTestId("templates-table")).toBeVisible();
  await page.getByTestId("template-create").click();
  const form = page.getByTestId("template-form");
  await form.getByLabel("Nom").fill(templateName);
  await form.getByLabel("Slug").fill(`nouvelles-${stamp}`);
  await form.getByLabel("Objet (français)").fill(`Quoi de neuf, {{full_name}} ? ${stamp}`);
  await form.getByLabel("Objet (anglais)").fill(`What's new, {{full_name}}? ${stamp}`);
  await form
    .getByLabel("Texte (français)")
    .fill("Bonjour {{full_name}},\n\nDe nouvelles leçons vous attendent sur {{site_url}}");
  await form
    .getByLabel("Texte (anglais)")
    .fill("Hello {{full_name}},\n\nNew lessons are waiting on {{site_url}}");
  // the live preview renders the sample learner
  await expect(page.getByTestId("mail-preview-subject-fr")).toHaveText(
    `Quoi de neuf, Camille Martin ? ${stamp}`,
  );
  await expect(page.getByTestId("mail-preview-fr").getByText("Bonjour Camille Martin,")).toBeVisible();
  // an unknown variable is refused before it reaches the server
  await form.getByLabel("Texte (anglais)").fill("Hello {{first_name}}");
  await page.screenshot({ path: test.info().outputPath("mail-template-form.png") });
  await page.getByTestId("template-save").click();
  await expect(form.getByText("Variable inconnue : {{first_name}}")).toBeVisible();
  await form
    .getByLabel("Texte (anglais)")
    .fill("Hello {{full_name}},\n\nNew lessons are waiting on {{site_url}}");
  await page.getByTestId("template-save").click();
  await expect(page.getByTestId("templates-table").getByText(templateName)).toBeVisible();

  await page.goto("/mail/send");
  // a click on an option while the list is still opening can go unheard: chosen until it shows
  const templateSelect = page.getByTestId("mail-template-select");
  await expect(async () => {
    await templateSelect.click();
    await page.locator(".ant-select-item-option", { hasText: templateName }).click();
    await expect(templateSelect).toContainText(templateName, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await page.getByTestId("mail-audience-role").click();
  await page.locator(".ant-select-item-option", { hasText: "CUSTOMER" }).click();
  const count = page.getByTestId("mail-audience-count");
  await expect(count).toHaveAttribute("data-count", /^[1-9]\d*$/);
  const recipients = Number(await count.getAttribute("data-count"));

  // a test to oneself first: it goes to the admin, marked as a test in their language
  await page.getByTestId("mail-send-test").click();
  await expect(page.getByTestId("mail-send-test-result")).toHaveText(`Essai envoyé à ${ADMIN.email}`);
  await findInMail(ADMIN.email, new RegExp(`Subject: \\[Essai\\] Quoi de neuf, .* \\? ${stamp}`), 20_000);

  await page.getByTestId("mail-send").click();
  const dialog = page.getByRole("dialog", {
    name: `Envoyer à ${recipients} personne${recipients > 1 ? "s" : ""} ?`,
  });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Envoyer" }).click();

  const progress = page.getByTestId("campaign-progress");
  await expect(progress).toBeVisible();
  await expect(progress).toHaveAttribute("data-percent", "100", { timeout: 30_000 });
  await expect(progress).toHaveAttribute("data-status", "SENT");
  await expect(progress.getByText("100 %")).toBeVisible();
  await expect(progress.getByText(`${recipients} envoyés, 0 en échec, sur ${recipients}`)).toBeVisible();
  await page.screenshot({ path: test.info().outputPath("mail-send-done.png"), fullPage: true });
  const history = page.getByTestId("campaigns-table");
  await expect(history.getByText(`Quoi de neuf, {{full_name}} ? ${stamp}`)).toBeVisible();
  const row = history.getByRole("row").filter({ hasText: `${stamp}` });
  await expect(row.getByTestId("campaign-total")).toHaveText(`${recipients}`);
  await expect(row.getByTestId("campaign-sent")).toHaveText(`${recipients}`);
  await expect(row.getByTestId("campaign-failed")).toHaveText("0");
  await expect(row.getByTestId("campaign-unsubscribed")).toHaveText("0");

  // the sink received it over SMTP, in French, with the learner's name
  const found = await findInMail(learner.email, new RegExp(`Bonjour ${name.replace(/\./g, "\\.")},`), 20_000);
  expect(found).toBe(`Bonjour ${name},`);
});
