import type { APIRequestContext } from "@playwright/test";
import { ADMIN } from "../support/env";
import { expect, test } from "../support/fixtures";
import { apiToken, createLearner, signIn } from "../support/session";

// Trials (issue 28, part 3) as learners see them, and the page PayPal sends the learner back to
// after approving a subscription (`?customer_plan=`), which confirms it with the server.

type Json = { data: Record<string, unknown> };

async function post(request: APIRequestContext, path: string, bearer: string, data?: object) {
  const res = await request.post(path, { headers: { Authorization: `Bearer ${bearer}` }, data });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()) as Json).data;
}

/** A monthly plan of this test's own, last on the pricing page (other specs take the seeded one). */
async function ownPlan(request: APIRequestContext, name: string, trialDays: number) {
  const admin = await apiToken(request, ADMIN);
  const data = await post(request, "/api/v1/plans", admin, {
    name,
    name_fr: name,
    amount: 1490,
    currency: "EUR",
    interval: "month",
    position: 9000,
    trial_days: trialDays,
  });
  return { id: (data.plan as { id: string }).id, admin };
}

test("a plan with free days: pricing and checkout say so, the billing page shows the trial and its end, a second checkout has none", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const { id: planId, admin } = await ownPlan(request, `Essai ${Date.now()}`, 14);
  let otherId = "";
  try {
    // a visitor: "14 jours gratuits, puis 14,90 € / mois"
    await page.goto("/pricing");
    const card = page.locator(`[data-testid="pricing-plan"][data-plan-id="${planId}"]`);
    await expect(card.getByTestId("plan-trial")).toHaveText(/14 jours gratuits, puis/);
    await expect(card).toContainText(/14,90\s€/);

    const learner = await createLearner(request, "trial");
    await signIn(page, learner);
    await page.goto(`/billing/upgrade-payment?plan=${planId}`);
    await expect(page.getByTestId("checkout-trial")).toContainText("14 jours gratuits");
    await page.getByTestId("checkout-demo").click();
    await expect(page.getByTestId("demo-checkout")).toBeVisible();
    await page.getByTestId("demo-approve").click();
    await expect(page.getByTestId("checkout-success")).toBeVisible();

    await page.goto("/billing");
    await expect(page.getByTestId("billing-status")).toHaveText("Actif");
    const ends = new Intl.DateTimeFormat("fr-FR", { dateStyle: "long" }).format(
      new Date(Date.now() + 14 * 86_400_000),
    );
    await expect(page.getByTestId("billing-trial")).toContainText("Vos 14 jours gratuits se terminent le");
    await expect(page.getByTestId("billing-trial-end")).toHaveText(`jusqu’au ${ends}`);
    // no payment yet, so no invoice
    await expect(page.getByTestId("payments-table")).toContainText("Aucun paiement pour le moment.");

    // another plan with free days, in English: the trial is used, the first payment is taken today
    const other = await ownPlan(request, `Essai bis ${Date.now()}`, 7);
    otherId = other.id;
    await page.goto(`/en/billing/upgrade-payment?plan=${otherId}`);
    await expect(page.getByTestId("checkout-trial")).toContainText("already had your free trial");
  } finally {
    for (const id of [planId, otherId])
      if (id) await request.delete(`/api/v1/plans/${id}`, { headers: { Authorization: `Bearer ${admin}` } });
  }
});

test("back from PayPal: the return page waits for the approval to show, then confirms the plan", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const { id: planId, admin } = await ownPlan(request, `Retour ${Date.now()}`, 0);
  try {
    const learner = await createLearner(request, "return");
    const bearer = await apiToken(request, learner);
    const started = await post(request, "/api/v1/customer-plan", bearer, { plan_id: planId });
    const customerPlan = started.customerPlan as { id: string; paypal_subscription_id: string };
    await signIn(page, learner);

    // PayPal's redirect: our return URL with its subscription id and tokens appended
    await page.goto(
      `/billing/subscription-payment?customer_plan=${customerPlan.id}&subscription_id=${customerPlan.paypal_subscription_id}&ba_token=BA-E2E&token=E2E`,
    );
    // not approved yet at the provider: the page keeps asking
    await expect(page.getByTestId("checkout-progress")).toBeVisible();
    await post(request, `/api/v1/customer-plan/demo/${customerPlan.id}/approve`, bearer);
    await expect(page.getByTestId("checkout-success")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("plan-tag")).toContainText("Retour");

    // coming back to it later says the same, without asking the buyer anything
    await page.reload();
    await expect(page.getByTestId("checkout-success")).toBeVisible();

    // a return for a checkout that is not theirs (or does not exist) fails clearly
    await page.goto("/en/billing/subscription-payment?customer_plan=00000000-0000-4000-8000-000000000000");
    await expect(page.getByTestId("checkout-failed")).toBeVisible();
  } finally {
    await request.delete(`/api/v1/plans/${planId}`, { headers: { Authorization: `Bearer ${admin}` } });
  }
});
