import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePaypal } from "../../../test/fakes/paypal-server";
import { PASSWORD, type TestContext } from "../../../test/helpers/build";
import {
  deliverSaleTwice,
  deliverWebhook,
  type PaypalTestApp,
  paypalTestApp,
} from "../../../test/helpers/paypal";
import { customerPlans, payments, webhookEvents } from "../../db/schema";

let t: TestContext;
let fake: FakePaypal;
let admin: string;
let planId: string;
let app: PaypalTestApp;
beforeAll(async () => {
  app = await paypalTestApp();
  ({ t, fake, admin, planId } = app);
});
afterAll(() => app.close());

type Learner = { id: string; email: string; token: string };

const subscribe = (learner: Learner, payload: object = { plan_id: planId }) =>
  t.request({ method: "POST", url: "/api/v1/customer-plan", token: learner.token, payload });
const get = (url: string, token: string) =>
  t.request({ method: "GET", url: `/api/v1/customer-plan${url}`, token });
const post = (url: string, token: string, payload?: object) =>
  t.request({ method: "POST", url: `/api/v1/customer-plan${url}`, token, ...(payload && { payload }) });
const me = async (token: string) =>
  (await t.request({ method: "GET", url: "/api/v1/user/me", token })).json().data.data;
async function access(userId: string, now?: Date) {
  const principal = await t.app.deps.services.users.loadPrincipal(userId);
  if (!principal) throw new Error("no principal");
  return t.app.deps.services.entitlement.accessOf(principal, now);
}
const rowsOf = (userId: string) =>
  t.database.db.select().from(customerPlans).where(eq(customerPlans.userId, userId));

/** A learner with an ACTIVE PayPal subscription, through the real flow. */
async function activeLearner() {
  const learner = await t.createUser();
  const started = await subscribe(learner);
  const customerPlan = started.json().data.customerPlan;
  fake.approve(customerPlan.paypal_subscription_id);
  const res = await get(`/update-status/${customerPlan.id}`, learner.token);
  expect(res.json().data.customerPlan.status).toBe("ACTIVE");
  return {
    learner,
    customerPlan: res.json().data.customerPlan,
    subscriptionId: customerPlan.paypal_subscription_id as string,
  };
}

describe("subscribe with PayPal", () => {
  it("subscribe → approve → update-status → ACTIVE → premium plan and every lesson open", async () => {
    const learner = await t.createUser();
    expect(await access(learner.id)).toBe("free");
    const res = await subscribe(learner, { plan_id: planId, provider: "paypal", locale: "en" });
    expect(res.statusCode).toBe(201);
    const { customerPlan, approveUrl } = res.json().data;
    expect(customerPlan).toMatchObject({
      status: "APPROVAL_PENDING",
      provider: "paypal",
      plan_id: planId,
      user_id: learner.id,
    });
    expect(customerPlan.paypal_subscription_id).toMatch(/^I-/);
    expect(approveUrl).toMatch(new RegExp(`^${fake.url}/checkoutnow\\?ba_token=`));
    const sub = fake.subscriptions.get(customerPlan.paypal_subscription_id);
    expect(sub?.custom_id).toBe(customerPlan.id);
    expect(sub?.application_context?.return_url).toBe(
      `http://parlons.test/en/billing/subscription-payment?customer_plan=${customerPlan.id}`,
    );
    expect(sub?.application_context?.cancel_url).toBe("http://parlons.test/en/pricing?checkout=cancelled");

    // still pending: nothing opens
    expect(
      (await get(`/update-status/${customerPlan.id}`, learner.token)).json().data.customerPlan.status,
    ).toBe("APPROVAL_PENDING");
    expect(await access(learner.id)).toBe("free");

    fake.approve(customerPlan.paypal_subscription_id);
    const updated = await get(`/update-status/${customerPlan.id}`, learner.token);
    expect(updated.statusCode).toBe(200);
    const active = updated.json().data.customerPlan;
    expect(active).toMatchObject({
      status: "ACTIVE",
      access_until: null,
      plan: { name: "Premium", amount: 999, premium: true },
    });
    expect(active.next_billing_at).not.toBeNull();
    expect(active.started_at).not.toBeNull();
    expect(await access(learner.id)).toBe("all");
    expect((await me(learner.token)).plan).toMatchObject({ id: planId, amount: 999 });

    const valid = await get("/has-valid-pro-plan", learner.token);
    expect(valid.json().data).toMatchObject({ valid: true, customerPlan: { id: customerPlan.id } });
    expect((await get("/valid-latest", learner.token)).json().data.customerPlan.id).toBe(customerPlan.id);
    expect((await get(`/by-plan-id/${planId}`, learner.token)).json().data.customerPlan.id).toBe(
      customerPlan.id,
    );

    const history = await get("/payments", learner.token);
    expect(history.json().data).toMatchObject({
      payments: [{ amount: 999, currency: "EUR", provider: "paypal", customer_plan_id: customerPlan.id }],
      pagination: { total: 1 },
    });
    // the same cycle seen again records nothing twice
    const last = await post("/update-last-payment", learner.token, { id: customerPlan.id });
    expect(last.json().data.payment).toMatchObject({ amount: 999 });
    expect((await get("/payments", learner.token)).json().data.pagination.total).toBe(1);

    // a second subscription to the same plan is refused
    expect((await subscribe(learner)).statusCode).toBe(409);
  });

  it("the card button is the same PayPal subscription flow", async () => {
    const learner = await t.createUser();
    const res = await subscribe(learner, { plan_id: planId, provider: "card" });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.customerPlan.provider).toBe("paypal");
    expect(res.json().data.approveUrl).toContain("/checkoutnow");
  });

  it("refuses the demo checkout when PayPal is configured, the free plan, and unknown plans (422)", async () => {
    const learner = await t.createUser();
    expect((await subscribe(learner, { plan_id: planId, provider: "demo" })).statusCode).toBe(422);
    const free = (await me(learner.token)).plan_id;
    expect((await subscribe(learner, { plan_id: free })).statusCode).toBe(422);
    expect((await subscribe(learner, { plan_id: "0197a9b0-0000-7000-8000-000000000000" })).statusCode).toBe(
      422,
    );
    expect(
      (await t.request({ method: "POST", url: "/api/v1/customer-plan", payload: { plan_id: planId } }))
        .statusCode,
    ).toBe(401);
  });

  it("a client-sent status is ignored: the provider's truth is used", async () => {
    const learner = await t.createUser();
    const cp = (await subscribe(learner)).json().data.customerPlan;
    const res = await post("/update-plan-status", learner.token, { id: cp.id, status: "ACTIVE" });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.customerPlan.status).toBe("APPROVAL_PENDING");
    expect(await access(learner.id)).toBe("free");
  });
});

describe("the provider's truth wins", () => {
  it("provider CANCELLED found at login → ours CANCELLED, back to the free plan", async () => {
    const { learner, customerPlan, subscriptionId } = await activeLearner();
    fake.setSubscriptionStatus(subscriptionId, "CANCELLED");
    const token = await t.login(learner.email, PASSWORD);
    const user = await me(token);
    expect(user.plan).toMatchObject({ is_default: true, amount: 0 });
    expect(await access(learner.id)).toBe("free");
    const [row] = await rowsOf(learner.id);
    expect(row?.status).toBe("CANCELLED");
    expect(row?.accessUntil).toBeNull();
    expect((await get("/has-valid-pro-plan", token)).json().data).toEqual({
      valid: false,
      customerPlan: null,
    });
    expect(customerPlan.status).toBe("ACTIVE");
  });

  it("plan-check-cancel: provider SUSPENDED while ours ACTIVE → ours follows and the user is on the free plan", async () => {
    const { learner, customerPlan, subscriptionId } = await activeLearner();
    const still = await get(`/plan-check-cancel/${customerPlan.id}`, learner.token);
    expect(still.json().data).toMatchObject({
      cancelled: false,
      plan_id: planId,
      customerPlan: { status: "ACTIVE" },
    });
    fake.setSubscriptionStatus(subscriptionId, "SUSPENDED");
    const res = await get(`/plan-check-cancel/${customerPlan.id}`, learner.token);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ cancelled: true, customerPlan: { status: "SUSPENDED" } });
    expect(res.json().data.plan_id).not.toBe(planId);
    expect(await access(learner.id)).toBe("free");
    // PayPal reactivates it (payment fixed): access comes back
    fake.setSubscriptionStatus(subscriptionId, "ACTIVE");
    expect(
      (await get(`/update-status/${customerPlan.id}`, learner.token)).json().data.customerPlan.status,
    ).toBe("ACTIVE");
    expect(await access(learner.id)).toBe("all");
  });

  it("login goes on when PayPal is down or hangs", async () => {
    const { learner, subscriptionId } = await activeLearner();
    fake.failNext(3, { status: 500, path: `/v1/billing/subscriptions/${subscriptionId}` });
    expect(await t.login(learner.email, PASSWORD)).toBeTruthy();
    fake.failNext(1, { delayMs: 1500, path: `/v1/billing/subscriptions/${subscriptionId}` });
    expect(await t.login(learner.email, PASSWORD)).toBeTruthy();
    expect(await access(learner.id)).toBe("all");
  });
});

describe("learner cancellation", () => {
  it("cancel → CANCELLED at PayPal, access until the paid period ends, then the free plan", async () => {
    const { learner, customerPlan, subscriptionId } = await activeLearner();
    const res = await post(`/cancel/${customerPlan.id}`, learner.token);
    expect(res.statusCode).toBe(200);
    const cancelled = res.json().data.customerPlan;
    expect(cancelled.status).toBe("CANCELLED");
    expect(cancelled.access_until).toBe(customerPlan.next_billing_at);
    expect(fake.subscriptions.get(subscriptionId)?.status).toBe("CANCELLED");
    expect(await access(learner.id)).toBe("all");
    expect((await me(learner.token)).plan_id).toBe(planId);
    // a second cancel is refused
    expect((await post(`/cancel/${customerPlan.id}`, learner.token)).statusCode).toBe(409);
    // the periodic sync after the period: back to free
    const after = new Date(new Date(cancelled.access_until).getTime() + 60_000);
    await t.app.deps.services.billing.syncDue(after);
    expect(await access(learner.id, after)).toBe("free");
    expect((await me(learner.token)).plan.is_default).toBe(true);
  });
});

describe("webhooks", () => {
  it("delivered three times → verified, stored once, one state change", async () => {
    const { learner, customerPlan, subscriptionId } = await activeLearner();
    fake.setSubscriptionStatus(subscriptionId, "SUSPENDED");
    const delivery = fake.signedWebhook({
      event_type: "BILLING.SUBSCRIPTION.SUSPENDED",
      resource: { id: subscriptionId, status: "SUSPENDED" },
    });
    const reads = () =>
      fake.requests.filter(
        (r) => r.method === "GET" && r.path === `/v1/billing/subscriptions/${subscriptionId}`,
      ).length;
    const readsBefore = reads();
    const first = await deliverWebhook(t, delivery);
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ received: true, duplicate: false });
    const [afterFirst] = await rowsOf(learner.id);
    expect(afterFirst?.status).toBe("SUSPENDED");
    for (let i = 0; i < 2; i++) {
      const again = await deliverWebhook(t, delivery);
      expect(again.statusCode).toBe(200);
      expect(again.json().data.duplicate).toBe(true);
    }
    const [afterAll3] = await rowsOf(learner.id);
    expect(afterAll3?.updatedAt.getTime()).toBe(afterFirst?.updatedAt.getTime());
    expect(reads() - readsBefore).toBe(1);
    const stored = await t.database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, delivery.body.id));
    expect(stored).toHaveLength(1);
    expect(stored[0]?.processedAt).not.toBeNull();
    expect(customerPlan.status).toBe("ACTIVE");
    expect(await access(learner.id)).toBe("free");
  });

  it("the same delivery arriving concurrently is stored once and applied once", async () => {
    const { learner, subscriptionId } = await activeLearner();
    fake.setSubscriptionStatus(subscriptionId, "CANCELLED");
    const delivery = fake.signedWebhook({
      event_type: "BILLING.SUBSCRIPTION.CANCELLED",
      resource: { id: subscriptionId, status: "CANCELLED" },
    });
    const results = await Promise.all([
      deliverWebhook(t, delivery),
      deliverWebhook(t, delivery),
      deliverWebhook(t, delivery),
    ]);
    for (const res of results) expect(res.statusCode).toBe(200);
    expect(
      await t.database.db.select().from(webhookEvents).where(eq(webhookEvents.id, delivery.body.id)),
    ).toHaveLength(1);
    const rows = await rowsOf(learner.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe("CANCELLED");
    expect(await access(learner.id)).toBe("free");
  });

  it("a payment event records the payment once", async () => {
    const { learner, subscriptionId } = await activeLearner();
    await t.database.db.delete(payments).where(eq(payments.userId, learner.id));
    expect(await deliverSaleTwice(t, fake, { id: "SALE-1", subscriptionId, total: "9.99" })).toEqual([
      200, 200,
    ]);
    expect(await t.database.db.select().from(payments).where(eq(payments.userId, learner.id))).toHaveLength(
      1,
    );
  });

  it("tampered or unsigned deliveries are rejected (400) and change nothing", async () => {
    const { learner, subscriptionId } = await activeLearner();
    fake.setSubscriptionStatus(subscriptionId, "CANCELLED");
    const delivery = fake.signedWebhook({
      event_type: "BILLING.SUBSCRIPTION.CANCELLED",
      resource: { id: subscriptionId, status: "CANCELLED" },
    });
    const tampered = {
      ...delivery,
      rawBody: delivery.rawBody.replace("BILLING.SUBSCRIPTION.CANCELLED", "BILLING.SUBSCRIPTION.EXPIRED"),
    };
    const res = await deliverWebhook(t, tampered);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("BAD_REQUEST");
    const unsigned = await deliverWebhook(t, {
      headers: { "content-type": "application/json" },
      rawBody: delivery.rawBody,
    });
    expect(unsigned.statusCode).toBe(400);
    const garbage = await deliverWebhook(t, { headers: delivery.headers, rawBody: "{not json" });
    expect(garbage.statusCode).toBe(400);
    const [row] = await rowsOf(learner.id);
    expect(row?.status).toBe("ACTIVE");
    expect(
      await t.database.db.select().from(webhookEvents).where(eq(webhookEvents.id, delivery.body.id)),
    ).toHaveLength(0);
    expect(await access(learner.id)).toBe("all");
  });

  it("PayPal down while processing → 502 (PayPal redelivers), then the redelivery applies it", async () => {
    const { learner, subscriptionId } = await activeLearner();
    fake.setSubscriptionStatus(subscriptionId, "EXPIRED");
    const delivery = fake.signedWebhook({
      event_type: "BILLING.SUBSCRIPTION.EXPIRED",
      resource: { id: subscriptionId, status: "EXPIRED" },
    });
    fake.failNext(1, { status: 500, path: `/v1/billing/subscriptions/${subscriptionId}` });
    expect((await deliverWebhook(t, delivery)).statusCode).toBe(502);
    expect((await rowsOf(learner.id))[0]?.status).toBe("ACTIVE");
    const again = await deliverWebhook(t, delivery);
    expect(again.json().data.duplicate).toBe(false);
    expect((await rowsOf(learner.id))[0]?.status).toBe("EXPIRED");
    expect(await access(learner.id)).toBe("free");
  });
});

describe("PayPal down when subscribing", () => {
  it("500 or timeout → 502 PROVIDER_ERROR, no customer plan written", async () => {
    const learner = await t.createUser();
    fake.failNext(1, { status: 500, path: "/v1/billing/subscriptions" });
    const down = await subscribe(learner);
    expect(down.statusCode).toBe(502);
    expect(down.json()).toMatchObject({ code: "PROVIDER_ERROR" });
    fake.failNext(1, { delayMs: 1500, path: "/v1/billing/subscriptions" });
    const slow = await subscribe(learner);
    expect(slow.statusCode).toBe(502);
    expect(await rowsOf(learner.id)).toHaveLength(0);
  });

  it("update-status while PayPal is down → 502 and the row unchanged", async () => {
    const learner = await t.createUser();
    const cp = (await subscribe(learner)).json().data.customerPlan;
    fake.approve(cp.paypal_subscription_id);
    fake.failNext(1, { status: 503, path: `/v1/billing/subscriptions/${cp.paypal_subscription_id}` });
    expect((await get(`/update-status/${cp.id}`, learner.token)).statusCode).toBe(502);
    expect((await rowsOf(learner.id))[0]?.status).toBe("APPROVAL_PENDING");
  });
});

describe("authorization", () => {
  it("a learner cannot touch another learner's customer plan (404); staff can", async () => {
    const { learner: owner, customerPlan } = await activeLearner();
    const other = await t.createUser();
    const attempts = [
      get(`/update-status/${customerPlan.id}`, other.token),
      get(`/plan-check-cancel/${customerPlan.id}`, other.token),
      post(`/cancel/${customerPlan.id}`, other.token),
      post("/update-plan-status", other.token, { id: customerPlan.id }),
      post("/update-last-payment", other.token, { id: customerPlan.id }),
      get(`/by-plan-id/${planId}?user_id=${owner.id}`, other.token),
      get(`/has-valid-pro-plan?user_id=${owner.id}`, other.token),
      get(`/payments?user_id=${owner.id}`, other.token),
    ];
    for (const res of await Promise.all(attempts)) expect(res.statusCode).toBe(404);
    expect((await get(`/by-plan-id/${planId}`, other.token)).json().data.customerPlan).toBeNull();
    expect((await rowsOf(owner.id))[0]?.status).toBe("ACTIVE");

    const staff = await get(`/update-status/${customerPlan.id}`, admin);
    expect(staff.statusCode).toBe(200);
    expect((await get(`/has-valid-pro-plan?user_id=${owner.id}`, admin)).json().data.valid).toBe(true);
    expect((await get(`/payments?user_id=${owner.id}`, admin)).json().data.pagination.total).toBe(1);
  });

  it("every customer-plan route requires authentication (401)", async () => {
    const id = "0197a9b0-0000-7000-8000-000000000000";
    const routes = [
      { method: "GET" as const, url: `/api/v1/customer-plan/by-plan-id/${id}` },
      { method: "GET" as const, url: `/api/v1/customer-plan/update-status/${id}` },
      { method: "GET" as const, url: `/api/v1/customer-plan/plan-check-cancel/${id}` },
      { method: "POST" as const, url: "/api/v1/customer-plan/update-plan-status", payload: { id } },
      { method: "POST" as const, url: "/api/v1/customer-plan/update-last-payment", payload: { id } },
      { method: "GET" as const, url: "/api/v1/customer-plan/has-valid-pro-plan" },
      { method: "GET" as const, url: "/api/v1/customer-plan/valid-latest" },
      { method: "POST" as const, url: `/api/v1/customer-plan/cancel/${id}` },
      { method: "GET" as const, url: "/api/v1/customer-plan/payments" },
      { method: "POST" as const, url: `/api/v1/customer-plan/demo/${id}/approve` },
    ];
    for (const route of routes) expect((await t.request(route)).statusCode, route.url).toBe(401);
  });

  it("the providers route tells the web which buttons to show, without secrets", async () => {
    const res = await t.request({ method: "GET", url: "/api/v1/billing/providers" });
    expect(res.json().data).toEqual({
      provider: "paypal",
      checkout: ["paypal", "card"],
      paypal_client_id: fake.clientId,
    });
    expect(res.body).not.toContain(fake.clientSecret);
  });
});
