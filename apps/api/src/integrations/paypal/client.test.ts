import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakePaypal, startFakePaypal } from "../../../test/fakes/paypal-server";
import {
  centsToPaypalValue,
  createPaypalClient,
  type PaypalClient,
  PaypalError,
  paypalValueToCents,
} from "./client";

let fake: FakePaypal;

beforeAll(async () => {
  fake = await startFakePaypal({ clientId: "parlons-test-client", clientSecret: "s3cr3t-never-leak-me" });
});

afterAll(async () => {
  await fake.close();
});

afterEach(() => {
  fake.setWebhookVerification("SIGNATURE");
});

function client(overrides: Partial<Parameters<typeof createPaypalClient>[0]> = {}): PaypalClient {
  return createPaypalClient({
    baseUrl: fake.url,
    clientId: fake.clientId,
    clientSecret: fake.clientSecret,
    ...overrides,
  });
}

const tokenRequests = () => fake.requests.filter((r) => r.path === "/v1/oauth2/token").length;

async function caught(promise: Promise<unknown>): Promise<PaypalError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaypalError);
  return error as PaypalError;
}

async function activePlan(paypal: PaypalClient, amountCents = 999, interval: "MONTH" | "YEAR" = "MONTH") {
  const product = await paypal.createProduct({
    name: "Parlons Premium",
    type: "SERVICE",
    category: "EDUCATIONAL_AND_TEXTBOOKS",
  });
  return paypal.createPlan({
    productId: product.id,
    name: "Premium",
    amountCents,
    currency: "EUR",
    interval,
  });
}

async function subscribe(paypal: PaypalClient, planId: string) {
  return paypal.createSubscription({
    planId,
    returnUrl: "http://parlons.test/paypal?result=success",
    cancelUrl: "http://parlons.test/pricing",
    customId: "customer-plan-42",
    locale: "fr-FR",
    brandName: "Parlons",
  });
}

describe("amounts", () => {
  it("converts cents to PayPal's decimal strings and back, exactly", () => {
    expect(centsToPaypalValue(999)).toBe("9.99");
    expect(centsToPaypalValue(1000)).toBe("10.00");
    expect(centsToPaypalValue(50)).toBe("0.50");
    expect(centsToPaypalValue(0)).toBe("0.00");
    expect(centsToPaypalValue(-5)).toBe("-0.05");
    expect(centsToPaypalValue(500, "JPY")).toBe("500");
    expect(paypalValueToCents("9.99")).toBe(999);
    expect(paypalValueToCents("10")).toBe(1000);
    expect(paypalValueToCents("0.5")).toBe(50);
    expect(paypalValueToCents(".5")).toBe(50);
    expect(paypalValueToCents("19.90")).toBe(1990);
    expect(paypalValueToCents("0.29")).toBe(29); // 0.29 * 100 is 28.999999999999996 in floats
    expect(paypalValueToCents("1.100")).toBe(110);
    expect(paypalValueToCents("500", "JPY")).toBe(500);
    expect(() => paypalValueToCents("1.005")).toThrow(RangeError);
    expect(() => paypalValueToCents("abc")).toThrow(RangeError);
    expect(() => paypalValueToCents("")).toThrow(RangeError);
    expect(() => centsToPaypalValue(9.5)).toThrow(RangeError);
  });
});

describe("access token", () => {
  it("asks for one token for many calls, with Basic auth and the client-credentials form", async () => {
    const paypal = client();
    const before = tokenRequests();
    const product = await paypal.createProduct({ name: "Parlons", type: "SERVICE" });
    await paypal.createProduct({ name: "Parlons 2", type: "SERVICE" });
    await paypal.getAccessToken();
    expect(product.id).toMatch(/^PROD-/);
    expect(tokenRequests() - before).toBe(1);
    const tokenCall = fake.requests.find((r) => r.path === "/v1/oauth2/token");
    expect(tokenCall?.body).toBe("grant_type=client_credentials");
    expect(tokenCall?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString("base64")}`,
    );
  });

  it("shares one in-flight token request between concurrent callers", async () => {
    const paypal = client();
    const before = tokenRequests();
    const tokens = await Promise.all([
      paypal.getAccessToken(),
      paypal.getAccessToken(),
      paypal.getAccessToken(),
    ]);
    expect(new Set(tokens).size).toBe(1);
    expect(tokenRequests() - before).toBe(1);
  });

  it("renews the token once when PayPal rejects it with 401", async () => {
    const paypal = client();
    const product = await paypal.createProduct({ name: "Parlons", type: "SERVICE" });
    const before = tokenRequests();
    fake.expireTokens();
    const plan = await paypal.createPlan({
      productId: product.id,
      name: "P",
      amountCents: 100,
      currency: "EUR",
      interval: "MONTH",
    });
    expect(plan.status).toBe("ACTIVE");
    expect(tokenRequests() - before).toBe(1);
  });

  it("renews the token before it expires", async () => {
    const short = await startFakePaypal({ tokenTtlSeconds: 1 });
    try {
      const paypal = createPaypalClient({
        baseUrl: short.url,
        clientId: short.clientId,
        clientSecret: short.clientSecret,
      });
      const first = await paypal.getAccessToken();
      await new Promise((resolve) => setTimeout(resolve, 950));
      const second = await paypal.getAccessToken();
      expect(second).not.toBe(first);
      expect(short.requests.filter((r) => r.path === "/v1/oauth2/token")).toHaveLength(2);
    } finally {
      await short.close();
    }
  });

  it("fails with PaypalError 401 on wrong credentials, without leaking the secret", async () => {
    const warnings: object[] = [];
    const paypal = client({
      clientSecret: "wrong-secret-value",
      logger: { warn: (obj) => warnings.push(obj) },
    });
    const error = await caught(paypal.createProduct({ name: "Parlons", type: "SERVICE" }));
    expect(error.status).toBe(401);
    expect(error.name).toBe("invalid_client");
    expect(error.message).toContain("Client Authentication failed");
    const everything = `${error.message} ${error.stack} ${JSON.stringify(warnings)} ${JSON.stringify(error)}`;
    expect(everything).not.toContain("wrong-secret-value");
    expect(everything).not.toContain(Buffer.from(`${fake.clientId}:wrong-secret-value`).toString("base64"));
    expect(warnings).toHaveLength(1);
  });
});

describe("products and plans", () => {
  it("creates a monthly plan with one REGULAR cycle and an exact decimal price", async () => {
    const paypal = client();
    const product = await paypal.createProduct({
      name: "Parlons Premium",
      description: "Audio courses",
      type: "SERVICE",
    });
    for (const [cents, value] of [
      [999, "9.99"],
      [1000, "10.00"],
      [50, "0.50"],
    ] as const) {
      const plan = await paypal.createPlan({
        productId: product.id,
        name: `Premium ${value}`,
        amountCents: cents,
        currency: "EUR",
        interval: "YEAR",
        status: "CREATED",
      });
      expect(plan.status).toBe("CREATED");
      const stored = fake.plans.get(plan.id);
      expect(stored?.billing_cycles).toEqual([
        {
          frequency: { interval_unit: "YEAR", interval_count: 1 },
          tenure_type: "REGULAR",
          sequence: 1,
          total_cycles: 0,
          pricing_scheme: { fixed_price: { value, currency_code: "EUR" } },
        },
      ]);
      expect(stored?.payment_preferences).toMatchObject({ auto_bill_outstanding: true });
      await paypal.activatePlan(plan.id);
      expect(fake.plans.get(plan.id)?.status).toBe("ACTIVE");
    }
  });

  it("deactivates a plan, and refuses to activate an active one", async () => {
    const paypal = client();
    const plan = await activePlan(paypal);
    const error = await caught(paypal.activatePlan(plan.id));
    expect(error.status).toBe(422);
    expect(error.hasIssue("PLAN_STATUS_INVALID")).toBe(true);
    await paypal.deactivatePlan(plan.id);
    expect(fake.plans.get(plan.id)?.status).toBe("INACTIVE");
  });

  it("creates a plan once for a repeated PayPal-Request-Id", async () => {
    const paypal = client();
    const product = await paypal.createProduct({ name: "Parlons", type: "SERVICE" });
    const input = {
      productId: product.id,
      name: "Premium",
      amountCents: 1290,
      currency: "EUR",
      interval: "MONTH",
      requestId: "plan-create-7f3c",
    } as const;
    const before = fake.plans.size;
    const first = await paypal.createPlan(input);
    const second = await paypal.createPlan(input);
    expect(second).toEqual(first);
    expect(fake.plans.size - before).toBe(1);
    const sent = fake.requests.filter(
      (r) => r.path === "/v1/billing/plans" && r.headers["paypal-request-id"] === "plan-create-7f3c",
    );
    expect(sent).toHaveLength(2);
  });

  it("reports PayPal's validation errors with their details", async () => {
    const paypal = client();
    const error = await caught(
      paypal.createPlan({
        productId: "PROD-UNKNOWN",
        name: "X",
        amountCents: 100,
        currency: "EUR",
        interval: "MONTH",
      }),
    );
    expect(error.status).toBe(400);
    expect(error.name).toBe("INVALID_REQUEST");
    expect(error.debugId).toBeTruthy();
    expect(error.details).toContainEqual(
      expect.objectContaining({ field: "/product_id", issue: "INVALID_PARAMETER_VALUE" }),
    );
  });
});

describe("subscriptions", () => {
  it("creates a subscription that waits for approval, with the approve link", async () => {
    const paypal = client();
    const plan = await activePlan(paypal);
    const created = await subscribe(paypal, plan.id);
    expect(created.id).toMatch(/^I-/);
    expect(created.status).toBe("APPROVAL_PENDING");
    expect(created.approveUrl).toMatch(new RegExp(`^${fake.url}/checkoutnow\\?ba_token=BA-`));
    const sent = fake.requests.findLast((r) => r.path === "/v1/billing/subscriptions");
    expect(sent?.body).toEqual({
      plan_id: plan.id,
      custom_id: "customer-plan-42",
      application_context: {
        brand_name: "Parlons",
        locale: "fr-FR",
        shipping_preference: "NO_SHIPPING",
        user_action: "SUBSCRIBE_NOW",
        return_url: "http://parlons.test/paypal?result=success",
        cancel_url: "http://parlons.test/pricing",
      },
    });
    expect(sent?.headers["paypal-request-id"]).toBeTruthy();
    const pending = await paypal.getSubscription(created.id);
    expect(pending).toEqual({
      id: created.id,
      status: "APPROVAL_PENDING",
      planId: plan.id,
      customId: "customer-plan-42",
      statusUpdateTime: expect.any(Date),
    });
  });

  it("reads an approved subscription as ACTIVE with its next billing and last payment in cents", async () => {
    const paypal = client();
    const plan = await activePlan(paypal, 1999);
    const created = await subscribe(paypal, plan.id);
    fake.approve(created.id, { payer: { email: "lea@example.com" }, at: new Date("2025-01-15T10:00:00Z") });
    const subscription = await paypal.getSubscription(created.id);
    expect(subscription).toMatchObject({
      id: created.id,
      status: "ACTIVE",
      planId: plan.id,
      customId: "customer-plan-42",
      startTime: new Date("2025-01-15T10:00:00Z"),
      nextBillingTime: new Date("2025-02-15T10:00:00Z"),
      lastPayment: { amountCents: 1999, currency: "EUR", time: new Date("2025-01-15T10:00:00Z") },
      failedPaymentsCount: 0,
      subscriber: { email: "lea@example.com" },
    });
  });

  it("suspends, reactivates and cancels; cancelling twice is a 422", async () => {
    const paypal = client();
    const plan = await activePlan(paypal);
    const { id } = await subscribe(paypal, plan.id);
    fake.approve(id);
    await paypal.suspendSubscription(id, "Payment dispute");
    expect((await paypal.getSubscription(id)).status).toBe("SUSPENDED");
    await paypal.activateSubscription(id, "Resolved");
    expect((await paypal.getSubscription(id)).status).toBe("ACTIVE");
    await paypal.cancelSubscription(id, "Cancelled by the learner");
    const cancelled = await paypal.getSubscription(id);
    expect(cancelled.status).toBe("CANCELLED");
    expect(cancelled.nextBillingTime).toBeUndefined();
    expect(fake.requests.findLast((r) => r.path.endsWith("/cancel"))?.body).toEqual({
      reason: "Cancelled by the learner",
    });

    const error = await caught(paypal.cancelSubscription(id, "again"));
    expect(error.status).toBe(422);
    expect(error.name).toBe("UNPROCESSABLE_ENTITY");
    expect(error.hasIssue("SUBSCRIPTION_STATUS_INVALID")).toBe(true);
  });

  it("cannot cancel a subscription that was never approved", async () => {
    const paypal = client();
    const plan = await activePlan(paypal);
    const { id } = await subscribe(paypal, plan.id);
    const error = await caught(paypal.cancelSubscription(id, "abandoned"));
    expect(error.status).toBe(422);
  });

  it("follows a status that changed on PayPal's side", async () => {
    const paypal = client();
    const plan = await activePlan(paypal);
    const { id } = await subscribe(paypal, plan.id);
    fake.approve(id);
    fake.setSubscriptionStatus(id, "EXPIRED");
    expect((await paypal.getSubscription(id)).status).toBe("EXPIRED");
  });

  it("answers 404 RESOURCE_NOT_FOUND for an unknown subscription", async () => {
    const error = await caught(client().getSubscription("I-DOESNOTEXIST"));
    expect(error.status).toBe(404);
    expect(error.name).toBe("RESOURCE_NOT_FOUND");
    expect(error.hasIssue("INVALID_RESOURCE_ID")).toBe(true);
  });

  it("returns the buyer to our site through the fake checkout pages", async () => {
    const paypal = client();
    const plan = await activePlan(paypal);
    const created = await subscribe(paypal, plan.id);
    const page = await fetch(created.approveUrl);
    expect(await page.text()).toContain(created.id);
    const token = new URL(created.approveUrl).searchParams.get("ba_token");
    const back = await fetch(`${fake.url}/checkoutnow/approve?ba_token=${token}`, { redirect: "manual" });
    expect(back.status).toBe(302);
    const location = new URL(back.headers.get("location") ?? "");
    expect(location.origin + location.pathname).toBe("http://parlons.test/paypal");
    expect(location.searchParams.get("subscription_id")).toBe(created.id);
    expect((await paypal.getSubscription(created.id)).status).toBe("ACTIVE");
  });
});

describe("outages", () => {
  it("turns a 500 into PaypalError 500", async () => {
    const paypal = client();
    await paypal.getAccessToken();
    fake.failNext(1, { status: 500 });
    const error = await caught(paypal.getSubscription("I-ANY"));
    expect(error.status).toBe(500);
    expect(error.name).toBe("INTERNAL_SERVER_ERROR");
  });

  it("turns slowness beyond the timeout into PaypalError 0, quickly", async () => {
    const paypal = client({ timeoutMs: 100 });
    await paypal.getAccessToken();
    fake.failNext(1, { delayMs: 2_000 });
    const started = Date.now();
    const error = await caught(paypal.getSubscription("I-ANY"));
    expect(error.status).toBe(0);
    expect(error.name).toBe("TIMEOUT");
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("turns a refused connection into PaypalError 0", async () => {
    const down = await startFakePaypal();
    await down.close();
    const error = await caught(
      createPaypalClient({
        baseUrl: down.url,
        clientId: "id",
        clientSecret: "s3cr3t-never-leak-me",
      }).getAccessToken(),
    );
    expect(error.status).toBe(0);
    expect(error.name).toBe("NETWORK_ERROR");
    expect(error.message).not.toContain("s3cr3t-never-leak-me");
  });

  it("never puts the secret or the access token in messages or logs", async () => {
    const warnings: unknown[] = [];
    const paypal = client({ logger: { warn: (obj, msg) => warnings.push(obj, msg) } });
    const token = await paypal.getAccessToken();
    fake.failNext(1, { status: 503 });
    const errors = [
      await caught(paypal.getSubscription("I-ANY")),
      await caught(paypal.getSubscription("I-MISSING")),
      await caught(paypal.cancelSubscription("I-MISSING", "x")),
    ];
    expect(errors.map((e) => e.status)).toEqual([503, 404, 404]);
    const everything = JSON.stringify([warnings, errors.map((e) => [e.message, e.stack, e.details])]);
    for (const secret of [
      fake.clientSecret,
      token,
      Buffer.from(`${fake.clientId}:${fake.clientSecret}`).toString("base64"),
    ]) {
      expect(everything).not.toContain(secret);
    }
  });
});

describe("webhook signature", () => {
  const webhookEvent = (id = "I-WEBHOOK") => ({
    event_type: "BILLING.SUBSCRIPTION.CANCELLED",
    resource: { id, status: "CANCELLED", plan_id: "P-X", custom_id: "customer-plan-42" },
  });

  it("accepts a delivery signed by PayPal", async () => {
    const delivery = fake.signedWebhook(webhookEvent());
    expect(delivery.body.id).toMatch(/^WH-/);
    expect(delivery.body.resource_type).toBe("subscription");
    const parsed: unknown = JSON.parse(delivery.rawBody);
    await expect(
      client().verifyWebhookSignature({ headers: delivery.headers, body: parsed, webhookId: fake.webhookId }),
    ).resolves.toBe(true);
    const sent = fake.requests.findLast((r) => r.path === "/v1/notifications/verify-webhook-signature");
    expect(sent?.body).toMatchObject({
      auth_algo: "SHA256withRSA",
      cert_url: delivery.headers["paypal-cert-url"],
      transmission_id: delivery.headers["paypal-transmission-id"],
      transmission_sig: delivery.headers["paypal-transmission-sig"],
      transmission_time: delivery.headers["paypal-transmission-time"],
      webhook_id: fake.webhookId,
      webhook_event: delivery.body,
    });
  });

  it("reads the headers whatever their case", async () => {
    const delivery = fake.signedWebhook(webhookEvent());
    const upper = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k.toUpperCase(), v]));
    await expect(
      client().verifyWebhookSignature({ headers: upper, body: delivery.body, webhookId: fake.webhookId }),
    ).resolves.toBe(true);
  });

  it("rejects a tampered body, tampered headers or another webhook id", async () => {
    const paypal = client();
    const delivery = fake.signedWebhook(webhookEvent());
    const tamperedBody = { ...delivery.body, resource: { ...delivery.body.resource, status: "ACTIVE" } };
    await expect(
      paypal.verifyWebhookSignature({
        headers: delivery.headers,
        body: tamperedBody,
        webhookId: fake.webhookId,
      }),
    ).resolves.toBe(false);
    const other = fake.signedWebhook(webhookEvent());
    await expect(
      paypal.verifyWebhookSignature({
        headers: { ...delivery.headers, "paypal-transmission-sig": other.headers["paypal-transmission-sig"] },
        body: delivery.body,
        webhookId: fake.webhookId,
      }),
    ).resolves.toBe(false);
    await expect(
      paypal.verifyWebhookSignature({
        headers: { ...delivery.headers, "paypal-transmission-time": new Date().toISOString() },
        body: delivery.body,
        webhookId: fake.webhookId,
      }),
    ).resolves.toBe(false);
    await expect(
      paypal.verifyWebhookSignature({
        headers: delivery.headers,
        body: delivery.body,
        webhookId: "OTHERWEBHOOK",
      }),
    ).resolves.toBe(false);
  });

  it("answers false without calling PayPal when headers are missing", async () => {
    const delivery = fake.signedWebhook(webhookEvent());
    const before = fake.requests.length;
    const { "paypal-transmission-sig": _sig, ...headers } = delivery.headers;
    await expect(
      client().verifyWebhookSignature({ headers, body: delivery.body, webhookId: fake.webhookId }),
    ).resolves.toBe(false);
    await expect(
      client().verifyWebhookSignature({ headers: {}, body: delivery.body, webhookId: fake.webhookId }),
    ).resolves.toBe(false);
    expect(fake.requests.length).toBe(before);
  });

  it("follows the configured verification answer", async () => {
    const delivery = fake.signedWebhook(webhookEvent());
    fake.setWebhookVerification("FAILURE");
    await expect(
      client().verifyWebhookSignature({
        headers: delivery.headers,
        body: delivery.body,
        webhookId: fake.webhookId,
      }),
    ).resolves.toBe(false);
  });

  it("throws when PayPal cannot verify (so the delivery is retried), rather than answering false", async () => {
    const paypal = client();
    await paypal.getAccessToken();
    const delivery = fake.signedWebhook(webhookEvent());
    fake.failNext(1, { status: 503 });
    const error = await caught(
      paypal.verifyWebhookSignature({
        headers: delivery.headers,
        body: delivery.body,
        webhookId: fake.webhookId,
      }),
    );
    expect(error.status).toBe(503);
  });
});
