import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { APIRequestContext, Page } from "@playwright/test";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, signIn } from "../support/session";

/** What a new learner meets on a phone in their first week, each seen once (issue: nothing that feels unfinished). */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

const MP3 = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../apps/api/test/fixtures/tone-10s.mp3",
);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A course of its own with two free lessons and a premium one (the catalogue's first page is other specs' business). */
async function courseWithTwoLessons(
  request: APIRequestContext,
): Promise<{ courseId: string; lessonIds: string[] }> {
  const admin = await apiToken(request, ADMIN);
  const stamp = Date.now();
  const course = await request.post("/api/v1/courses", {
    headers: bearer(admin),
    data: {
      title_fr: `Premiers pas ${stamp}`,
      title_en: `First steps ${stamp}`,
      target_language: "it",
      level: "A1",
      active: true,
    },
  });
  expect(course.status(), await course.text()).toBe(201);
  const courseId = (await course.json()).data.course.id as string;
  const upload = await request.post("/api/v1/medias/file/upload", {
    headers: bearer(admin),
    multipart: {
      type: "audio",
      file: { name: "tone.mp3", mimeType: "audio/mpeg", buffer: readFileSync(MP3) },
    },
  });
  expect(upload.ok(), await upload.text()).toBe(true);
  const audio = ((await upload.json()).data as { file_path: string }).file_path;
  const lessonIds: string[] = [];
  for (const title of ["Uno", "Due", "Tre"]) {
    const res = await request.post(`/api/v1/courses/${courseId}/lessons`, {
      headers: bearer(admin),
      data: { title_fr: title, title_en: title, audio, free: title !== "Tre" },
    });
    expect(res.status(), await res.text()).toBe(201);
    lessonIds.push((await res.json()).data.lesson.id as string);
  }
  return { courseId, lessonIds };
}

/** A payment of the learner's own, through the demo provider. */
async function payOnce(request: APIRequestContext, token: string): Promise<void> {
  const admin = await apiToken(request, ADMIN);
  const created = await request.post("/api/v1/plans", {
    headers: bearer(admin),
    data: {
      name: `Phone plan ${Date.now()}`,
      name_fr: `Formule téléphone ${Date.now()}`,
      amount: 1290,
      currency: "EUR",
      interval: "month",
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const started = await request.post("/api/v1/customer-plan", {
    headers: bearer(token),
    data: { plan_id: (await created.json()).data.plan.id },
  });
  expect(started.status(), await started.text()).toBe(201);
  const id = (await started.json()).data.customerPlan.id as string;
  const approved = await request.post(`/api/v1/customer-plan/demo/${id}/approve`, { headers: bearer(token) });
  expect(approved.ok(), await approved.text()).toBe(true);
}

/** Whether an element's text is cut (an ellipsis or a hidden overflow). */
const isCut = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => els.some((el) => el.scrollWidth > el.clientWidth + 1));

test("a visitor finds the plans from the header, and an odd event address shows the not-found page", async ({
  page,
}) => {
  await page.goto("/faqs");
  const pricing = page.getByTestId("nav-pricing");
  await expect(pricing).toBeInViewport();
  await pricing.click();
  await expect(page).toHaveURL(/\/pricing$/);

  const res = await page.goto("/events/123");
  expect(res?.status()).toBe(404);
  await expect(page.getByText("Cet événement est introuvable.")).toBeVisible();
  await expect(page.getByText("Requête invalide")).toHaveCount(0);
});

test("a learner's dashboard titles, billing history and logout read whole on a phone", async ({
  page,
  request,
}) => {
  const learner = await createLearner(request, "firstweek");
  await payOnce(request, await apiToken(request, learner));
  await signIn(page, learner);

  await expect(page.getByTestId("learner-progress")).toBeVisible();
  await expect(page.getByTestId("my-bookings")).toBeVisible();
  await expect(page.getByTestId("learner-progress").locator(".ant-card-head-title")).toContainText(
    "Vos cours",
  );
  expect(await isCut(page, ".ant-card-head-title")).toBe(false);
  // "Premium Premium" no more: the plan's name and its kind only when they differ
  await expect(page.getByTestId("dashboard-plan")).not.toHaveText(/^(\S+)\s+\1$/);

  await page.goto("/billing");
  const receipt = page.getByTestId("payment-receipt").first();
  await expect(receipt).toBeVisible();
  await expect(receipt).toBeInViewport();
  // the receipt link stands whole inside the table's box and the screen: nothing to scroll sideways to reach it
  const table = await page
    .getByTestId("payments-table")
    .locator(".ant-table-content, .ant-table-body")
    .first()
    .boundingBox();
  const link = await receipt.boundingBox();
  expect(link && table).toBeTruthy();
  if (link && table) {
    expect(link.x + link.width).toBeLessThanOrEqual(table.x + table.width + 0.5);
    expect(link.x + link.width).toBeLessThanOrEqual(390);
  }

  await page.getByTestId("settings-button").click();
  await page.getByTestId("logout-button").click();
  const confirm = page.locator(".ant-modal-confirm");
  await expect(confirm.getByRole("button", { name: "Se déconnecter" })).toBeVisible();
  await expect(confirm.getByRole("button", { name: /^ok$/i })).toHaveCount(0);
});

test("the speed a learner chose stays for the next lesson, and the upsell reads as a sentence", async ({
  page,
  request,
}) => {
  const { courseId, lessonIds } = await courseWithTwoLessons(request);
  const learner = await createLearner(request, "speed");
  await signIn(page, learner);
  // "Cours" in the signed-in menu keeps the learner inside the app's shell (menu, bell), not the public site
  await page.getByTestId("menu-button").click();
  await page.getByTestId("app-menu-drawer").getByRole("link").filter({ hasText: "Cours" }).first().click();
  await expect(page).toHaveURL(/\/courses$/);
  await expect(page.getByTestId("menu-button")).toBeVisible();
  await expect(page.locator(".site-header")).toHaveCount(0);
  await page.goto(`/courses/${courseId}`);
  await expect(page.getByTestId("menu-button")).toBeVisible();
  // the upsell beside the premium lesson: its text keeps a readable width, the button goes below it
  const upsell = page.getByTestId("upgrade-cta");
  await expect(upsell).toBeVisible();
  const textWidth = (await upsell.locator(".alert__content").boundingBox())?.width ?? 0;
  expect(textWidth).toBeGreaterThanOrEqual(200);

  await page.goto(`/courses/${courseId}/lessons/${lessonIds[0]}`);
  await page.getByTestId("player-speed").click();
  await page.locator(".ant-select-item-option", { hasText: "0,75×" }).click();
  await expect(page.getByTestId("player-speed")).toContainText("0,75×");

  await page.goto(`/courses/${courseId}/lessons/${lessonIds[1]}`);
  await expect(page.getByTestId("player")).toBeVisible();
  await expect(page.getByTestId("player-speed")).toContainText("0,75×");
});
