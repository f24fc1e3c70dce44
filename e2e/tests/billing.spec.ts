import type { APIRequestContext, Page } from "@playwright/test";
import { type OwnCourse, ownCourse } from "../support/course";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { playForASecond } from "../support/player";
import { apiToken, createLearner, signIn } from "../support/session";

type Json = Record<string, unknown>;
interface PlanJson {
  id: string;
  name: string;
  name_fr: string;
  premium: boolean;
  interval: string;
  amount: number;
  currency: string;
}

/** The price as the page shows it ("9,90 €" / "€9.90"), with plain spaces for matching. */
function price(plan: PlanJson, locale: "fr-FR" | "en-GB"): RegExp {
  const text = new Intl.NumberFormat(locale, { style: "currency", currency: plan.currency }).format(
    plan.amount / 100,
  );
  return new RegExp(text.replace(/[\u00a0\u202f ]/g, "\\s").replace(/[.$]/g, "\\$&"));
}

async function getJson<T = Json>(request: APIRequestContext, path: string, bearer?: string): Promise<T> {
  const res = await request.get(path, { headers: bearer ? { Authorization: `Bearer ${bearer}` } : {} });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** The seeded premium plan, or one created through the API as admin when staff removed them. */
async function premiumPlan(request: APIRequestContext): Promise<PlanJson> {
  const active = await getJson<{ data: { plans: PlanJson[] } }>(request, "/api/v1/plans/active");
  const existing = active.data.plans.find((p) => p.premium && p.interval !== "once");
  if (existing) return existing;
  const admin = await apiToken(request, ADMIN);
  const res = await request.post("/api/v1/plans", {
    headers: { Authorization: `Bearer ${admin}` },
    data: {
      name: "Premium",
      name_fr: "Premium",
      amount: 990,
      currency: "EUR",
      interval: "month",
      description_en: "Every lesson of every course.",
      description_fr: "Toutes les leçons de tous les cours.",
      features_en: ["Every lesson", "New courses first"],
      features_fr: ["Toutes les leçons", "Les nouveaux cours en premier"],
      position: 1,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { data: { plan: PlanJson } }).data.plan;
}

/** Opens a lesson page and checks that its audio really plays (the bytes are served). */
async function playsInBrowser(page: Page, courseId: string, lessonId: string) {
  await page.goto(`/courses/${courseId}/lessons/${lessonId}`);
  await playForASecond(page);
}

/** Whether the course's second lesson (premium) is locked for the learner, as the API says. */
async function lessonTwoLocked(
  request: APIRequestContext,
  bearer: string,
  course: OwnCourse,
): Promise<boolean> {
  const lessons = await getJson<{ data: { lessons: { id: string; locked: boolean; free: boolean }[] } }>(
    request,
    `/api/v1/courses/${course.courseId}/lessons`,
    bearer,
  );
  const second = lessons.data.lessons.find((l) => l.id === course.lessonIds[1]);
  expect(second, "the course has its premium lesson").toBeTruthy();
  expect(second?.free).toBe(false);
  return second?.locked ?? true;
}

test("pricing is public: plans side by side, signup on choose, cancelled checkout message (FR and EN)", async ({
  page,
  request,
}) => {
  const plan = await premiumPlan(request);
  await page.goto("/pricing?checkout=cancelled");
  await expect(page.getByTestId("checkout-cancelled")).toContainText("Paiement annulé");
  const cards = page.getByTestId("pricing-plan");
  await expect(cards.first()).toBeVisible();
  expect(await cards.count()).toBeGreaterThanOrEqual(2);
  const card = page.locator(`[data-testid="pricing-plan"][data-plan-id="${plan.id}"]`);
  await expect(card).toContainText(price(plan, "fr-FR"));
  await expect(card).toContainText("/ mois");
  await card.getByTestId("choose-plan").click();
  await expect(page.getByRole("dialog", { name: "Créer un compte" })).toBeVisible();

  await page.goto("/en/pricing");
  await expect(page.locator(`[data-testid="pricing-plan"][data-plan-id="${plan.id}"]`)).toContainText(
    price(plan, "en-GB"),
  );
  await expect(page.getByTestId("pricing-plan").first()).toContainText("Discovery");
});

test("free learner → upgrade → demo checkout → premium at once → cancel keeps access until the period ends", async ({
  page,
  request,
}) => {
  // sign-up, checkout, audio playback, cancellation and API checks: over 45 s on a busy machine
  test.setTimeout(90_000);
  const plan = await premiumPlan(request);
  // a course of this test's own: a free lesson, then a premium one
  const course = await ownCourse(request, "Abonnement", [
    { title: "Gratuite", free: true },
    { title: "Premium", free: false },
  ]);
  const learner = await createLearner(request, "billing");
  const bearer = await apiToken(request, learner);
  expect(await lessonTwoLocked(request, bearer, course)).toBe(true);

  await signIn(page, learner);
  await expect(page.getByTestId("plan-tag")).toContainText("Découverte");

  // upgrade → pricing: the free plan is marked as the current one
  await page.getByTestId("upgrade-button").click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.locator('[data-testid="pricing-plan"][data-current="true"]')).toContainText("Découverte");
  const card = page.locator(`[data-testid="pricing-plan"][data-plan-id="${plan.id}"]`);
  await card.getByTestId("choose-plan").click();

  // the demo checkout says plainly that no money moves
  const checkout = page.getByTestId("demo-checkout");
  await expect(checkout).toBeVisible();
  await expect(checkout).toContainText("Paiement de démonstration : aucun argent n'est débité");
  await expect(page).toHaveURL(/\/billing\/subscription-payment\?demo=/);
  await page.getByTestId("demo-approve").click();
  await expect(page.getByTestId("checkout-success")).toBeVisible();

  // the header follows without a reload
  await expect(page.getByTestId("plan-tag")).toContainText(plan.name_fr);
  await expect(page.getByTestId("upgrade-button")).toHaveCount(0);
  expect(await lessonTwoLocked(request, bearer, course)).toBe(false);

  // the premium lesson plays in the browser
  await page.getByTestId("checkout-success").getByRole("link", { name: "Mon abonnement" }).click();
  await expect(page).toHaveURL(/\/billing$/);
  const premiumLesson = course.lessonIds[1] ?? "";
  await playsInBrowser(page, course.courseId, premiumLesson);

  // billing: active, one payment, then cancel
  await page.goto("/billing");
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByTestId("billing-status")).toHaveText("Actif");
  await expect(page.getByTestId("payments-table")).toContainText(price(plan, "fr-FR"));
  await page.getByTestId("billing-cancel").click();
  const confirm = page.getByRole("dialog").filter({ hasText: "Résilier votre abonnement ?" });
  await expect(confirm).toContainText("jusqu'à la fin de la période déjà payée");
  await confirm.getByRole("button", { name: "Oui, résilier" }).click();

  // as designed (docs/decisions.md): cancelled, premium until the paid period ends
  await expect(page.getByTestId("billing-status")).toHaveText("Résilié");
  await expect(page.getByTestId("billing-access-until")).not.toHaveText("—");
  await expect(page.getByTestId("billing-cancelled-note")).toContainText("vous gardez l'accès");
  await expect(page.getByTestId("billing-cancel")).toHaveCount(0);
  await expect(page.getByTestId("plan-tag")).toContainText(plan.name_fr);
  expect(await lessonTwoLocked(request, bearer, course)).toBe(false);
  await playsInBrowser(page, course.courseId, premiumLesson);
});

test("a declined demo payment fails clearly and changes nothing", async ({ page, request }) => {
  const plan = await premiumPlan(request);
  const learner = await createLearner(request, "billing");
  await signIn(page, learner);
  await page.goto("/en/pricing");
  await page
    .locator(`[data-testid="pricing-plan"][data-plan-id="${plan.id}"]`)
    .getByTestId("choose-plan")
    .click();
  await expect(page.getByTestId("demo-checkout")).toContainText("Demo payment: no money moves");
  await page.getByTestId("demo-decline").click();
  await expect(page.getByTestId("checkout-failed")).toContainText("declined");
  await expect(page.getByTestId("plan-tag")).toContainText("Discovery");
  await expect(page.getByTestId("upgrade-button")).toBeVisible();
});

test("a second checkout approved while already subscribed says so: plan unchanged, its payment refunded", async ({
  page,
  request,
}) => {
  const plan = await premiumPlan(request);
  const learner = await createLearner(request, "billing");
  const bearer = await apiToken(request, learner);
  const headers = { Authorization: `Bearer ${bearer}` };
  // two checkouts started side by side (two tabs); the first is approved
  const started: string[] = [];
  for (let i = 0; i < 2; i++) {
    const res = await request.post("/api/v1/customer-plan", { headers, data: { plan_id: plan.id } });
    expect(res.status(), await res.text()).toBe(201);
    started.push(((await res.json()) as { data: { customerPlan: { id: string } } }).data.customerPlan.id);
  }
  const first = await request.post(`/api/v1/customer-plan/demo/${started[0]}/approve`, { headers });
  expect(first.ok(), await first.text()).toBe(true);

  await signIn(page, learner);
  await page.goto(`/billing/subscription-payment?demo=${started[1]}`);
  await page.getByTestId("demo-approve").click();
  const duplicate = page.getByTestId("checkout-duplicate");
  await expect(duplicate).toContainText("Vous avez déjà un abonnement");
  await expect(duplicate).toContainText("vous sera remboursé");
  await expect(page.getByTestId("checkout-failed")).toHaveCount(0);
  await expect(page.getByTestId("plan-tag")).toContainText(plan.name_fr);
  // coming back to the page later says the same
  await page.reload();
  await expect(page.getByTestId("checkout-duplicate")).toBeVisible();
});
