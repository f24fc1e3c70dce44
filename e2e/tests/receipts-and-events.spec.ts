import { readFileSync } from "node:fs";
import type { APIRequestContext } from "@playwright/test";
import { violations } from "../support/axe";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { findInMail } from "../support/mail";
import { type Account, apiToken, createLearner, signIn } from "../support/session";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A premium plan paid at once through the demo checkout (no money moves), through the API. */
async function payWithDemo(request: APIRequestContext, learner: Account) {
  const token = await apiToken(request, learner);
  const admin = await apiToken(request, ADMIN);
  const created = await request.post("/api/v1/plans", {
    headers: bearer(admin),
    data: {
      name: `Receipt plan ${Date.now()}`,
      name_fr: `Formule reçu ${Date.now()}`,
      amount: 1290,
      currency: "EUR",
      interval: "month",
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const planId = (await created.json()).data.plan.id as string;
  const started = await request.post("/api/v1/customer-plan", {
    headers: bearer(token),
    data: { plan_id: planId },
  });
  expect(started.status(), await started.text()).toBe(201);
  const id = (await started.json()).data.customerPlan.id as string;
  const approved = await request.post(`/api/v1/customer-plan/demo/${id}/approve`, { headers: bearer(token) });
  expect(approved.ok(), await approved.text()).toBe(true);
}

async function createEvent(request: APIRequestContext, data: Record<string, unknown>) {
  const admin = await apiToken(request, ADMIN);
  const start = new Date(Date.now() + 3 * 24 * 3600_000);
  const res = await request.post("/api/v1/events", {
    headers: bearer(admin),
    data: {
      title_en: `Listening club ${Date.now()}`,
      description_fr: "On écoute ensemble.",
      description_en: "We listen together.",
      kind: "online",
      online_url: "https://meet.example.com/e2e-club",
      starts_at: start.toISOString(),
      ends_at: new Date(start.getTime() + 3600_000).toISOString(),
      capacity: 1,
      ...data,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data.event as { id: string; slug: string };
}

test("a payment's receipt: listed in /billing, printed without the app around it, downloaded as a PDF, mailed", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const learner = await createLearner(request, "receipt");
  await payWithDemo(request, learner);
  await signIn(page, learner);
  await page.goto("/billing");
  const link = page.getByTestId("payments-table").getByTestId("payment-receipt").first();
  await expect(link).toHaveText(/^R-\d{4}-\d{6}$/);
  const number = (await link.textContent()) ?? "";
  await expect(page.getByTestId("payments-table")).toContainText("Payé");
  await link.click();

  await expect(page).toHaveURL(/\/billing\/receipts\/[\w-]+$/);
  const receipt = page.getByTestId("receipt");
  await expect(receipt.getByRole("heading", { level: 1 })).toHaveText(`Facture ${number}`);
  await expect(page.getByTestId("receipt-total")).toHaveText(/12,90\s€/);
  await expect(page.getByTestId("receipt-seller")).toContainText("Parlons");
  expect(await violations(page)).toEqual([]);

  // printed: the receipt alone
  await page.emulateMedia({ media: "print" });
  await expect(receipt).toBeVisible();
  await expect(page.locator(".app-header")).toBeHidden();
  await expect(page.getByTestId("receipt-pdf")).toBeHidden();
  await page.emulateMedia({ media: "screen" });

  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("receipt-pdf").click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${number}.pdf`);
  const file = await download.path();
  expect(readFileSync(file).subarray(0, 5).toString()).toBe("%PDF-");

  // the receipt was mailed, with its number and a link to this page
  await findInMail(learner.email, new RegExp(number));
});

test("an event page offers its .ics: 'Ajouter à mon agenda' downloads the event for any calendar", async ({
  page,
  request,
}) => {
  const title = `Club d'écoute ${Date.now()}`;
  const event = await createEvent(request, { title_fr: title, capacity: 5 });
  await page.goto(`/events/${event.id}`);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("event-ics").click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${event.slug}.ics`);
  const ics = readFileSync(await download.path(), "utf8");
  expect(ics).toContain("BEGIN:VCALENDAR");
  expect(ics).toContain(`SUMMARY:${title.replace(/[,;]/g, (c) => `\\${c}`)}`);
  // a visitor does not get the meeting link
  expect(ics).not.toContain("e2e-club");
});

test("a full event's waiting list: a learner joins it, gets the place when the booker cancels, and is mailed the .ics", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const title = `Atelier complet ${Date.now()}`;
  const event = await createEvent(request, { title_fr: title, capacity: 1 });
  const [booker, waiter] = await Promise.all([
    createLearner(request, "booker"),
    createLearner(request, "waiter"),
  ]);
  const bookerToken = await apiToken(request, booker);
  const booked = await request.post("/api/v1/registrations/booking", {
    headers: bearer(bookerToken),
    data: { event_id: event.id },
  });
  expect(booked.status()).toBe(201);

  await signIn(page, waiter);
  await page.goto(`/events/${event.id}`);
  await expect(page.getByTestId("event-places")).toHaveText("Complet");
  await page.getByTestId("event-waitlist-join").click();
  await expect(page.locator(".ant-message")).toContainText("Vous êtes sur la liste d'attente (n° 1)");
  await expect(page.getByTestId("my-booking-status")).toHaveText("Liste d'attente : vous êtes n° 1");
  await expect(page.getByTestId("event-waiting")).toHaveText("1 personne en liste d'attente");
  expect(await violations(page)).toEqual([]);

  // the booker cancels: the place goes to the first in line
  const registration = (await booked.json()).data.registration.id as string;
  const cancelled = await request.post(`/api/v1/registrations/cancel/${registration}`, {
    headers: bearer(bookerToken),
  });
  expect(cancelled.ok()).toBe(true);
  await page.reload();
  await expect(page.getByTestId("my-booking-status")).toHaveText("Vous avez réservé 1 place.");
  await expect(page.getByTestId("my-booking")).toContainText("Lien de la réunion");
  await findInMail(waiter.email, /BEGIN:VCALENDAR|text\/calendar/);
});
