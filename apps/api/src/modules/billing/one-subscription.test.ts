import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePaypal } from "../../../test/fakes/paypal-server";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { type PaypalTestApp, paypalTestApp } from "../../../test/helpers/paypal";
import { customerPlans, demoSubscriptions, payments, receipts } from "../../db/schema";

/**
 * One live subscription per learner, whatever arrives at once. Run on PostgreSQL too
 * (DATABASE_URL): PGlite's single connection runs the concurrent requests one after the other.
 */
const rounds = [1, 2, 3, 4, 5];
const CHECKOUTS = 20;

type Learner = { id: string; email: string; token: string };

async function checkouts(t: TestContext, learner: Learner, planId: string, n: number) {
  const started = await Promise.all(
    Array.from({ length: n }, () =>
      t.request({
        method: "POST",
        url: "/api/v1/customer-plan",
        token: learner.token,
        payload: { plan_id: planId },
      }),
    ),
  );
  for (const res of started) expect(res.statusCode, res.body).toBe(201);
  return started.map((res) => res.json().data.customerPlan as { id: string; paypal_subscription_id: string });
}

/** What the learner holds in our database: plans by status, payments by status, receipts. */
async function holdings(t: TestContext, learner: Learner) {
  const { db } = t.database;
  const rows = await db.select().from(customerPlans).where(eq(customerPlans.userId, learner.id));
  const paid = await db.select().from(payments).where(eq(payments.userId, learner.id));
  const issued = await db.select().from(receipts).where(eq(receipts.userId, learner.id));
  const count = <T>(list: T[], pick: (x: T) => string) =>
    list.reduce<Record<string, number>>((acc, x) => {
      acc[pick(x)] = (acc[pick(x)] ?? 0) + 1;
      return acc;
    }, {});
  return {
    rows,
    plans: count(rows, (r) => r.status),
    payments: count(paid, (p) => p.status),
    receipts: issued.length,
    active: rows.find((r) => r.status === "ACTIVE"),
  };
}

async function addPlan(t: TestContext, plan: object): Promise<string> {
  const res = await t.request({
    method: "POST",
    url: "/api/v1/plans",
    token: await t.adminToken(),
    payload: plan,
  });
  return res.json().data.plan.id;
}

async function planOf(t: TestContext, learner: Learner) {
  const res = await t.request({ method: "GET", url: "/api/v1/user/me", token: learner.token });
  return res.json().data.data.plan_id as string;
}

describe("demo provider: 20 checkouts approved at once", () => {
  let t: TestContext;
  let planId: string;
  beforeAll(async () => {
    t = await buildTestApp();
    planId = await addPlan(t, { name: "Monthly", name_fr: "Mensuel", amount: 990, interval: "month" });
  });
  afterAll(() => t.close());

  const approve = (learner: Learner, id: string) =>
    t.request({ method: "POST", url: `/api/v1/customer-plan/demo/${id}/approve`, token: learner.token });

  it.each(rounds)("round %i: exactly one ACTIVE, one subscription billed, one receipt", async (round) => {
    const learner = await t.createUser();
    const started = await checkouts(t, learner, planId, CHECKOUTS);
    const answers = await Promise.all(started.map((cp) => approve(learner, cp.id)));
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);

    const held = await holdings(t, learner);
    expect(held.plans, `round ${round}`).toEqual({ ACTIVE: 1, CANCELLED: CHECKOUTS - 1 });
    expect(held.payments).toEqual({ PAID: 1, REFUND_DUE: CHECKOUTS - 1 });
    expect(held.receipts).toBe(1);
    const kept = held.active?.id;
    for (const row of held.rows) if (row.id !== kept) expect(row.duplicateOf).toBe(kept);
    // each answer says what happened to that checkout: the one kept, or a duplicate of it
    const said = answers.map((res) => res.json().data.customerPlan);
    expect(said.filter((cp) => cp.status === "ACTIVE").map((cp) => cp.id)).toEqual([kept]);
    expect(said.filter((cp) => cp.duplicate_of === kept)).toHaveLength(CHECKOUTS - 1);
    // the provider bills one subscription: the kept one; the others were cancelled there
    const demo = await t.database.db
      .select()
      .from(demoSubscriptions)
      .where(eq(demoSubscriptions.status, "ACTIVE"));
    const billed = demo.filter((d) => held.rows.some((r) => r.providerSubscriptionId === d.id));
    expect(billed.map((d) => d.customerPlanId)).toEqual([kept]);
    expect(await planOf(t, learner)).toBe(planId);
    // the learner's history shows the one payment they hold
    const history = await t.request({
      method: "GET",
      url: "/api/v1/customer-plan/payments",
      token: learner.token,
    });
    expect(history.json().data.pagination.total).toBe(1);
  });

  it("approved one after another: the first is kept, every later one is a duplicate", async () => {
    const learner = await t.createUser();
    const started = await checkouts(t, learner, planId, 5);
    for (const cp of started) expect((await approve(learner, cp.id)).statusCode).toBe(200);
    const held = await holdings(t, learner);
    expect(held.active?.id).toBe(started[0]?.id);
    expect(held.plans).toEqual({ ACTIVE: 1, CANCELLED: 4 });
    expect(held.payments).toEqual({ PAID: 1, REFUND_DUE: 4 });
    expect(held.receipts).toBe(1);
  });

  it("a change of plan started while holding one still replaces it, even next to a duplicate", async () => {
    const yearly = await addPlan(t, { name: "Yearly", name_fr: "Annuel", amount: 9900, interval: "year" });
    const learner = await t.createUser();
    const [first] = await checkouts(t, learner, planId, 1);
    if (!first) throw new Error("no checkout");
    await approve(learner, first.id);
    // two upgrades started side by side: the first approved replaces the monthly plan, the other is a duplicate
    const upgrades = await checkouts(t, learner, yearly, 2);
    const answers = await Promise.all(upgrades.map((cp) => approve(learner, cp.id)));
    for (const res of answers) expect(res.statusCode).toBe(200);
    const held = await holdings(t, learner);
    expect(held.plans).toEqual({ ACTIVE: 1, CANCELLED: 2 });
    expect(held.active?.planId).toBe(yearly);
    expect(held.rows.find((r) => r.id === first.id)).toMatchObject({
      status: "CANCELLED",
      duplicateOf: null,
    });
    expect(held.payments).toEqual({ PAID: 2, REFUND_DUE: 1 });
    expect(held.receipts).toBe(2);
    expect(await planOf(t, learner)).toBe(yearly);
  });

  it("the database refuses a second ACTIVE plan for a learner (partial unique index)", async () => {
    const learner = await t.createUser();
    const started = await checkouts(t, learner, planId, 2);
    await approve(learner, started[0]?.id ?? "");
    await expect(
      t.database.db
        .update(customerPlans)
        .set({ status: "ACTIVE" })
        .where(and(eq(customerPlans.userId, learner.id), eq(customerPlans.id, started[1]?.id ?? ""))),
    ).rejects.toThrow();
  });
});

describe("PayPal: 20 subscriptions approved, then update-status at once", () => {
  let app: PaypalTestApp;
  let t: TestContext;
  let fake: FakePaypal;
  let planId: string;
  beforeAll(async () => {
    // twenty calls at once on a busy machine: more than the helper's short "PayPal hangs" timeout
    app = await paypalTestApp({ env: { PAYPAL_TIMEOUT_MS: "10000" } });
    ({ t, fake, planId } = app);
  });
  afterAll(() => app.close());

  const statusAtPaypal = (ids: string[]) =>
    ids.reduce<Record<string, number>>((acc, id) => {
      const status = fake.subscriptions.get(id)?.status ?? "MISSING";
      acc[status] = (acc[status] ?? 0) + 1;
      return acc;
    }, {});

  it.each(rounds)(
    "round %i: one ACTIVE, one subscription left live at PayPal, one receipt",
    async (round) => {
      const learner = await t.createUser();
      const started = await checkouts(t, learner, planId, CHECKOUTS);
      const ids = started.map((cp) => cp.paypal_subscription_id);
      for (const id of ids) fake.approve(id);
      expect(statusAtPaypal(ids)).toEqual({ ACTIVE: CHECKOUTS });
      const answers = await Promise.all(
        started.map((cp) =>
          t.request({
            method: "GET",
            url: `/api/v1/customer-plan/update-status/${cp.id}`,
            token: learner.token,
          }),
        ),
      );
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);

      const held = await holdings(t, learner);
      expect(held.plans, `round ${round}`).toEqual({ ACTIVE: 1, CANCELLED: CHECKOUTS - 1 });
      expect(statusAtPaypal(ids)).toEqual({ ACTIVE: 1, CANCELLED: CHECKOUTS - 1 });
      expect(fake.subscriptions.get(held.active?.providerSubscriptionId ?? "")?.status).toBe("ACTIVE");
      expect(held.payments).toEqual({ PAID: 1, REFUND_DUE: CHECKOUTS - 1 });
      expect(held.receipts).toBe(1);
      expect(await planOf(t, learner)).toBe(planId);
    },
  );

  it("the sync repairs a learner billed twice: keeps one, cancels the other at PayPal", async () => {
    const learner = await t.createUser();
    // two checkouts approved at PayPal whose return pages never reached us
    const started = await checkouts(t, learner, planId, 2);
    const ids = started.map((cp) => cp.paypal_subscription_id);
    for (const id of ids) fake.approve(id);
    expect((await holdings(t, learner)).plans).toEqual({ APPROVAL_PENDING: 2 });

    await t.app.deps.services.billing.syncDue();
    const held = await holdings(t, learner);
    expect(held.plans).toEqual({ ACTIVE: 1, CANCELLED: 1 });
    expect(statusAtPaypal(ids)).toEqual({ ACTIVE: 1, CANCELLED: 1 });
    expect(held.payments).toEqual({ PAID: 1, REFUND_DUE: 1 });
    expect(held.receipts).toBe(1);
    expect(await planOf(t, learner)).toBe(planId);
  });

  it("a duplicate whose cancellation failed at PayPal is cancelled by the next sync", async () => {
    const learner = await t.createUser();
    const [kept, extra] = await checkouts(t, learner, planId, 2);
    if (!kept || !extra) throw new Error("no checkouts");
    fake.approve(kept.paypal_subscription_id);
    fake.approve(extra.paypal_subscription_id);
    const update = (id: string) =>
      t.request({ method: "GET", url: `/api/v1/customer-plan/update-status/${id}`, token: learner.token });
    expect((await update(kept.id)).json().data.customerPlan.status).toBe("ACTIVE");
    fake.failNext(1, {
      status: 503,
      path: `/v1/billing/subscriptions/${extra.paypal_subscription_id}/cancel`,
    });
    expect((await update(extra.id)).json().data.customerPlan.status).toBe("CANCELLED");
    // PayPal still bills both
    expect(statusAtPaypal([kept.paypal_subscription_id, extra.paypal_subscription_id])).toEqual({
      ACTIVE: 2,
    });

    await t.app.deps.services.billing.syncDue();
    expect(fake.subscriptions.get(extra.paypal_subscription_id)?.status).toBe("CANCELLED");
    expect(fake.subscriptions.get(kept.paypal_subscription_id)?.status).toBe("ACTIVE");
    const held = await holdings(t, learner);
    expect(held.active?.id).toBe(kept.id);
    expect(held.receipts).toBe(1);
  });
});
