import type { Locator, Page } from "@playwright/test";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { type Account, createLearner, signIn } from "../support/session";

/** "2030-01-02 18:00": what the form's date pickers take, in the browser's time zone. */
function pickerValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

async function signOut(page: Page) {
  await page.goto("/logout");
  await expect(page).toHaveURL(/\/$/);
}

async function as(page: Page, account: Account, title: string): Promise<Locator> {
  await signOut(page);
  await signIn(page, account);
  await page.goto("/events");
  const card = page.getByTestId("event-card").filter({ hasText: title });
  await expect(card).toBeVisible();
  return card;
}

async function book(page: Page, card: Locator, places: number) {
  await card.getByTestId("event-book").click();
  const dialog = page.getByRole("dialog");
  await dialog.getByTestId("booking-places").getByText(String(places), { exact: true }).click();
  await dialog.getByTestId("booking-confirm").click();
  await expect(page.locator(".ant-message")).toContainText(
    places === 1 ? "Réservation confirmée : 1 place." : `Réservation confirmée : ${places} places.`,
  );
  await expect(card.getByTestId("my-booking")).toContainText(
    places === 1 ? "Vous avez réservé 1 place." : `Vous avez réservé ${places} places.`,
  );
}

test("an admin creates a 2-place event; one learner books both, the next finds it full until the first cancels", async ({
  page,
  request,
}) => {
  // five sign-ins and an admin form: longer than the default 45 s on a busy machine
  test.setTimeout(150_000);
  const title = `Atelier e2e ${Date.now()}`;
  const [first, second] = await Promise.all([
    createLearner(request, "booker"),
    createLearner(request, "waiter"),
  ]);

  // the admin creates the event in the staff page
  await signIn(page, ADMIN);
  await page.goto("/events/manage");
  await expect(page.getByRole("heading", { level: 1, name: "Gestion des événements" })).toBeVisible();
  await page.getByTestId("event-create").click();
  const form = page.getByTestId("event-form");
  await form.getByLabel("Titre (français)").fill(title);
  await form.getByLabel("Description (français)").fill("Un atelier de deux places.");
  await form.getByRole("tab", { name: "Anglais" }).click();
  await form.getByLabel("Titre (anglais)").fill(`E2E workshop ${title.slice(-6)}`);
  await form.getByLabel("Lien de la réunion").fill("https://meet.example.com/e2e");
  const start = new Date(Date.now() + 2 * 24 * 3600_000);
  start.setMinutes(0, 0, 0);
  const end = new Date(start.getTime() + 3600_000);
  await form.getByLabel("Nombre de places").fill("2");
  for (const [label, date] of [
    ["Début", start],
    ["Fin", end],
  ] as const) {
    // typed then confirmed; on a busy machine the picker may confirm before it has read the
    // typed text (it then keeps the current minute): typed and confirmed again until it holds.
    // OK is pressed by its click event: the popup, placed again as it slides in near the screen's
    // edge, can stay "not stable" for Playwright's pointer click for longer than a test lasts
    await expect(async () => {
      await form.getByLabel(label).click();
      await form.getByLabel(label).fill(pickerValue(date));
      await page.locator(".ant-picker-dropdown:visible .ant-picker-ok button").dispatchEvent("click");
      // closed, and the text still there: the value was taken (a popup closed otherwise puts the
      // last value taken back in the field)
      await expect(page.locator(".ant-picker-dropdown:visible")).toHaveCount(0, { timeout: 2000 });
      await expect(form.getByLabel(label)).toHaveValue(pickerValue(date), { timeout: 2000 });
    }).toPass({ timeout: 20_000 });
  }
  await page.getByTestId("event-form-submit").click();
  await expect(page.locator(".ant-message")).toContainText("Événement enregistré.");
  const row = page.getByTestId("events-table").getByRole("row").filter({ hasText: title });
  await expect(row).toContainText("0 / 2 places réservées");

  // visitors see it, with its places, and are asked to log in to book
  await signOut(page);
  await page.goto("/events");
  const publicCard = page.getByTestId("event-card").filter({ hasText: title });
  await expect(publicCard.getByTestId("event-places")).toHaveText("2 places restantes");
  await publicCard.getByTestId("event-book").click();
  await expect(page.getByRole("dialog", { name: "Connexion" })).toBeVisible();
  await page.keyboard.press("Escape");

  // the first learner books both places
  let card = await as(page, first, title);
  await book(page, card, 2);
  await expect(card.getByTestId("event-places")).toHaveText("Complet");

  // the second finds it full: no booking, the waiting list instead
  card = await as(page, second, title);
  await expect(card.getByTestId("event-places")).toHaveText("Complet");
  await expect(card.getByTestId("event-book")).toHaveCount(0);
  await expect(card.getByTestId("event-waitlist-join")).toHaveText("Rejoindre la liste d'attente");

  // the first cancels from the event page
  card = await as(page, first, title);
  await card.getByRole("link", { name: title, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByTestId("my-booking")).toContainText("Vous avez réservé 2 places.");
  await page.getByTestId("booking-cancel").click();
  await page.getByRole("button", { name: "Oui, annuler" }).click();
  await expect(page.locator(".ant-message")).toContainText("Réservation annulée.");
  await expect(page.getByTestId("event-places")).toHaveText("2 places restantes");
  await expect(page.getByTestId("my-booking")).toHaveCount(0);

  // now the second books
  card = await as(page, second, title);
  await expect(card.getByTestId("event-places")).toHaveText("2 places restantes");
  await book(page, card, 1);

  // the admin sees who booked
  await signOut(page);
  await signIn(page, ADMIN);
  await page.goto("/events/manage");
  const adminRow = page.getByTestId("events-table").getByRole("row").filter({ hasText: title });
  await expect(adminRow).toContainText("1 / 2 places réservées");
  await adminRow.getByTestId("event-registrations").click();
  const registrations = page.getByTestId("event-registrations-table");
  await expect(registrations).toContainText(second.email);
  await expect(registrations).toContainText(first.email);
  await expect(registrations).toContainText("Annulé");
});
