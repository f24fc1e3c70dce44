import { violations } from "../support/axe";
import { ownCourse } from "../support/course";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, signIn } from "../support/session";

test.describe.configure({ timeout: 120_000 });

test("staff write a course's glossary: add and change by keyboard, delete after a confirmation, import a CSV, accept a suggestion (FR, EN)", async ({
  page,
  request,
}) => {
  const course = await ownCourse(request, "Glossario", [{ title: "Al bar", free: true }], { language: "it" });
  const lessonId = course.lessonIds[0] as string;
  const cues = await request.put(`/api/v1/courses/${course.courseId}/lessons/${lessonId}/cues`, {
    headers: { authorization: `Bearer ${await apiToken(request, ADMIN)}` },
    data: {
      cues: [
        { start: 0, end: 2, text: "Grazie.", translation_fr: "Merci.", translation_en: "Thank you." },
        {
          start: 2,
          end: 5,
          text: "Vorrei un cappuccino.",
          translation_fr: "Je voudrais un cappuccino.",
          translation_en: "I would like a cappuccino.",
        },
      ],
    },
  });
  expect(cues.ok(), await cues.text()).toBe(true);

  await signIn(page, ADMIN);
  await page.goto(`/courses/${course.courseId}/lessons`);
  await page.getByTestId("glossary-open").click();
  const drawer = page.getByRole("dialog", { name: "Glossaire du cours" });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId("glossary-table")).toContainText("Le glossaire est vide");
  expect(await violations(page)).toEqual([]);

  // add by keyboard: the button, the fields, Enter saves
  await drawer.getByTestId("glossary-add").focus();
  await page.keyboard.press("Enter");
  const form = page.getByRole("dialog", { name: "Nouvelle entrée" });
  await expect(form.getByLabel("Mot")).toBeVisible();
  await form.getByLabel("Mot").fill("vorrei");
  await page.getByTestId("glossary-save").click();
  await expect(form.getByText("Donnez le sens en français ou en anglais.")).toBeVisible();
  await form.getByLabel("Sens en français").fill("je voudrais");
  await form.getByLabel("Sens en français").press("Tab");
  await page.keyboard.type("I would like");
  await page.getByTestId("glossary-save").click();
  await expect(form).toBeHidden();
  const rows = drawer.getByTestId("glossary-table").locator("tbody tr.ant-table-row");
  await expect(rows.filter({ hasText: "vorrei" })).toContainText("je voudrais");

  // change it
  await drawer.getByRole("button", { name: "Modifier « vorrei »" }).click();
  const edit = page.getByRole("dialog", { name: "Modifier l'entrée" });
  await edit.getByLabel("Note").fill("conditionnel de volere");
  await page.getByTestId("glossary-save").click();
  await expect(edit).toBeHidden();
  await expect(rows.filter({ hasText: "vorrei" })).toContainText("conditionnel de volere");

  // a CSV: two good lines, one without a meaning (reported by its number)
  await drawer.getByTestId("glossary-import-file").setInputFiles({
    name: "bar.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      "term,meaning_fr,meaning_en,note\nun,un,a,\ncappuccino,cappuccino,cappuccino,\nbar,,,\n",
    ),
  });
  const result = drawer.getByTestId("glossary-import-result");
  await expect(result).toContainText("« bar.csv » : 2 entrées ajoutées, 0 mise à jour.");
  await expect(result).toContainText("Ligne 4 : le sens manque (français ou anglais)");
  await expect(rows.filter({ hasText: "cappuccino" })).toBeVisible();

  // delete: a confirmation first; cancelled, nothing goes
  await drawer.getByRole("button", { name: "Supprimer « un »" }).click();
  const confirm = page.getByRole("dialog", { name: "Supprimer cette entrée ?" });
  await expect(confirm).toContainText("« un » ne sera plus expliqué");
  await confirm.getByRole("button", { name: "Annuler" }).click();
  await expect(rows.filter({ hasText: /^un/ })).toHaveCount(1);
  await drawer.getByRole("button", { name: "Supprimer « un »" }).click();
  await confirm.getByRole("button", { name: "Supprimer" }).click();
  await expect(rows.filter({ hasText: /^un/ })).toHaveCount(0);

  // suggestions from the lines: "grazie", alone in its line, means its translation
  await drawer.getByRole("tab", { name: "Suggestions" }).click();
  const grazie = drawer.getByTestId("glossary-suggestion").filter({ hasText: "grazie" });
  await expect(grazie).toContainText("Merci");
  await expect(drawer.getByTestId("glossary-suggestion").filter({ hasText: "vorrei" })).toHaveCount(0);
  await grazie.getByRole("button", { name: "Accepter « grazie »" }).click();
  await expect(grazie).toHaveCount(0);
  await drawer.getByRole("tab", { name: "Entrées" }).click();
  await expect(rows.filter({ hasText: "grazie" })).toContainText("Merci");
  expect(await violations(page)).toEqual([]);

  await page.goto(`/en/courses/${course.courseId}/lessons`);
  await page.getByTestId("glossary-open").click();
  const english = page.getByRole("dialog", { name: "Course glossary" });
  const search = english.getByLabel("Search a word or a meaning");
  await search.fill("grazie");
  await search.press("Enter");
  await expect(english.getByTestId("glossary-table").locator("tbody tr.ant-table-row")).toHaveCount(1);
  await search.fill("zzz");
  await search.press("Enter");
  await expect(english.getByTestId("glossary-table")).toContainText("No entry matches “zzz”.");
});
