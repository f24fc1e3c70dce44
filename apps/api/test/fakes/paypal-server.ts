import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { crc32 } from "node:zlib";
import {
  type Detail,
  type FakeCapture,
  type FakeOrder,
  type FakeRefund,
  fakeOrders,
  invalid,
  missing,
} from "./paypal-orders";

/**
 * A fake PayPal REST API for tests: an HTTP server on 127.0.0.1 that speaks the request and
 * response shapes of the real one (OAuth2 token, catalog products, billing plans,
 * subscriptions, webhook signature verification), with PayPal's error bodies, plus controls to
 * play the buyer (approve), the outside world (status changes, outages, slowness) and PayPal's
 * webhook deliveries.
 */

type FakeSubscriptionStatus =
  | "APPROVAL_PENDING"
  | "APPROVED"
  | "ACTIVE"
  | "SUSPENDED"
  | "CANCELLED"
  | "EXPIRED";

type Json = Record<string, unknown>;

interface FakeProduct {
  id: string;
  name: string;
  description?: string;
  type: string;
  category?: string;
  create_time: string;
  update_time: string;
}

interface FakeBillingCycle {
  frequency: { interval_unit: "DAY" | "WEEK" | "MONTH" | "YEAR"; interval_count: number };
  tenure_type: "REGULAR" | "TRIAL";
  sequence: number;
  total_cycles: number;
  pricing_scheme?: { fixed_price: { value: string; currency_code: string } };
}

interface FakePlan {
  id: string;
  product_id: string;
  name: string;
  description?: string;
  status: "CREATED" | "ACTIVE" | "INACTIVE";
  billing_cycles: FakeBillingCycle[];
  payment_preferences: Json;
  create_time: string;
  update_time: string;
}

interface FakeSubscription {
  id: string;
  plan_id: string;
  status: FakeSubscriptionStatus;
  status_update_time: string;
  status_change_note?: string;
  custom_id?: string;
  start_time?: string;
  quantity: string;
  create_time: string;
  update_time: string;
  plan_overridden: boolean;
  /** The plan override's prices by cycle sequence (PayPal's `plan.billing_cycles[].pricing_scheme`). */
  cycle_prices?: Record<number, { value: string; currency_code: string }>;
  /** The cycle being billed (its sequence) and how many of its payments were taken. */
  current_cycle?: { sequence: number; completed: number };
  subscriber?: {
    name: { given_name: string; surname: string };
    email_address: string;
    payer_id: string;
    shipping_address?: { name: { full_name: string }; address: { country_code: string } };
  };
  billing_info?: {
    outstanding_balance: { currency_code: string; value: string };
    cycle_executions: Json[];
    last_payment?: { amount: { currency_code: string; value: string }; time: string };
    next_billing_time?: string;
    failed_payments_count: number;
  };
  /** The approval token PayPal puts in the approve link (not part of the GET answer). */
  ba_token: string;
  application_context?: { return_url?: string; cancel_url?: string; [key: string]: unknown };
}

interface FakePaypalRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, the raw form string of the token call, or undefined. */
  body: unknown;
}

interface FakeWebhookDelivery {
  headers: Record<string, string>;
  body: {
    id: string;
    event_version: string;
    create_time: string;
    resource_type: string;
    resource_version: string;
    event_type: string;
    summary: string;
    resource: object;
    links: Json[];
  };
  /** The exact bytes PayPal would POST. */
  rawBody: string;
}

type WebhookVerificationMode = "SUCCESS" | "FAILURE" | "SIGNATURE";

export interface FakePaypalOptions {
  clientId?: string;
  clientSecret?: string;
  /** SUCCESS/FAILURE: every verification answers that; SIGNATURE (default): only deliveries from `signedWebhook()`. */
  webhookVerification?: WebhookVerificationMode;
  /** The webhook id the signatures are bound to (PayPal's "Webhook ID" of the app). */
  webhookId?: string;
  /** expires_in of issued access tokens. Default 32400 (PayPal's nine hours). */
  tokenTtlSeconds?: number;
}

export interface FakePaypal {
  url: string;
  clientId: string;
  clientSecret: string;
  webhookId: string;
  close(): Promise<void>;
  /**
   * The buyer approves: ACTIVE, start_time, first payment taken, next billing one interval later;
   * a plan whose first cycle is a free TRIAL takes nothing and bills first when it ends. `payer.country`:
   * the subscriber's address (PayPal's shipping_address), which the API cross-checks for VAT.
   */
  approve(
    subscriptionId: string,
    opts?: {
      payer?: { email?: string; givenName?: string; surname?: string; country?: string };
      at?: Date;
    },
  ): FakeSubscription;
  setSubscriptionStatus(id: string, status: FakeSubscriptionStatus): FakeSubscription;
  /**
   * The next billing time comes: the next payment is taken at the price of the cycle it falls in
   * (a one-cycle TRIAL gives way to the REGULAR cycle), the plan override's price when it has one.
   */
  renew(subscriptionId: string, at?: Date): FakeSubscription;
  /** The buyer approves an order (Orders v2): APPROVED, with the payer and their country. */
  approveOrder(orderId: string, payer?: { email?: string; country?: string }): FakeOrder;
  orders: Map<string, FakeOrder>;
  captures: Map<string, FakeCapture>;
  refunds: Map<string, FakeRefund>;
  /**
   * The next `n` requests (optionally only those whose path starts with `path`) wait `delayMs`,
   * then answer `status` with PayPal's error body (or, without a status, answer normally).
   */
  failNext(n: number, opts: { status?: 500 | 503; delayMs?: number; path?: string }): void;
  /** Revokes every issued access token (the next authenticated call gets 401 invalid_token). */
  expireTokens(): void;
  setWebhookVerification(mode: WebhookVerificationMode): void;
  signedWebhook(event: {
    event_type: string;
    resource: object;
    id?: string;
    summary?: string;
    resource_type?: string;
  }): FakeWebhookDelivery;
  requests: FakePaypalRequest[];
  products: Map<string, FakeProduct>;
  plans: Map<string, FakePlan>;
  subscriptions: Map<string, FakeSubscription>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.name ?? body.error));
  }
}

const ID_ALPHABET = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";

function randomId(length: number): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const byte of bytes) out += ID_ALPHABET[byte % ID_ALPHABET.length];
  return out;
}

/** PayPal's timestamps have whole seconds: 2024-05-01T10:00:00Z. */
function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const AMOUNT_PATTERN = /^((-?[0-9]+)|(-?([0-9]+)?[.][0-9]+))$/;
const INTERVAL_UNITS = ["DAY", "WEEK", "MONTH", "YEAR"] as const;

function addInterval(from: Date, unit: FakeBillingCycle["frequency"]["interval_unit"], count: number): Date {
  const next = new Date(from);
  if (unit === "DAY") next.setUTCDate(next.getUTCDate() + count);
  if (unit === "WEEK") next.setUTCDate(next.getUTCDate() + 7 * count);
  if (unit === "MONTH") next.setUTCMonth(next.getUTCMonth() + count);
  if (unit === "YEAR") next.setUTCFullYear(next.getUTCFullYear() + count);
  return next;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startFakePaypal(opts: FakePaypalOptions = {}): Promise<FakePaypal> {
  const clientId = opts.clientId ?? "fake-client-id";
  const clientSecret = opts.clientSecret ?? "fake-client-secret";
  const webhookId = opts.webhookId ?? `WHK${randomId(14)}`;
  const tokenTtlSeconds = opts.tokenTtlSeconds ?? 32_400;
  let webhookVerification: WebhookVerificationMode = opts.webhookVerification ?? "SIGNATURE";
  /** The fake's stand-in for PayPal's private signing key. */
  const signingKey = randomBytes(32);

  const requests: FakePaypalRequest[] = [];
  const products = new Map<string, FakeProduct>();
  const plans = new Map<string, FakePlan>();
  const subscriptions = new Map<string, FakeSubscription>();
  const tokens = new Map<string, number>();
  const idempotent = new Map<string, { status: number; body: Json | undefined }>();
  const failures: { remaining: number; status?: number; delayMs: number; path?: string }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let url = "";

  const debugId = () => randomBytes(7).toString("hex").slice(0, 13);

  function paypalError(status: number, name: string, message: string, details: Detail[] = []): HttpError {
    return new HttpError(status, {
      name,
      message,
      debug_id: debugId(),
      details,
      links: [
        {
          href: `https://developer.paypal.com/docs/api/v1/billing/subscriptions#${name}`,
          rel: "information_link",
          method: "GET",
        },
      ],
    });
  }

  const invalidRequest = (details: Detail[]) =>
    paypalError(
      400,
      "INVALID_REQUEST",
      "Request is not well-formed, syntactically incorrect, or violates schema.",
      details,
    );

  const notFound = () =>
    paypalError(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", [
      { issue: "INVALID_RESOURCE_ID", description: "Requested resource ID was not found." },
    ]);

  const unprocessable = (issue: string, description: string) =>
    paypalError(
      422,
      "UNPROCESSABLE_ENTITY",
      "The requested action could not be performed, semantically incorrect, or failed business validation.",
      [{ issue, description }],
    );

  const ordersApi = fakeOrders({ url: () => url, invalidRequest, notFound, unprocessable });

  function authenticate(headers: IncomingHttpHeaders): void {
    const header = headers.authorization;
    if (!header?.startsWith("Bearer ")) {
      throw paypalError(
        401,
        "AUTHENTICATION_FAILURE",
        "Authentication failed due to invalid authentication credentials or a missing Authorization header.",
      );
    }
    const expiresAt = tokens.get(header.slice("Bearer ".length));
    if (expiresAt === undefined || expiresAt <= Date.now()) {
      throw new HttpError(401, {
        error: "invalid_token",
        error_description: "Access Token not found in cache",
      });
    }
  }

  function issueToken(headers: IncomingHttpHeaders, form: string): { status: number; body: Json } {
    const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
    const given = headers.authorization ?? "";
    const ok =
      Buffer.byteLength(given) === Buffer.byteLength(expected) &&
      timingSafeEqual(Buffer.from(given), Buffer.from(expected));
    if (!ok)
      throw new HttpError(401, {
        error: "invalid_client",
        error_description: "Client Authentication failed",
      });
    if (new URLSearchParams(form).get("grant_type") !== "client_credentials") {
      throw new HttpError(400, {
        error: "unsupported_grant_type",
        error_description: "unsupported grant_type",
      });
    }
    const token = `A21AA${randomBytes(48).toString("base64url")}`;
    tokens.set(token, Date.now() + tokenTtlSeconds * 1000);
    return {
      status: 200,
      body: {
        scope:
          "https://uri.paypal.com/services/subscriptions https://uri.paypal.com/services/applications/webhooks openid",
        access_token: token,
        token_type: "Bearer",
        app_id: "APP-80W284485P519543T",
        expires_in: tokenTtlSeconds,
        nonce: `${isoSeconds(new Date())}${randomId(20)}`,
      },
    };
  }

  function createProduct(body: Json): { status: number; body: Json } {
    const details: Detail[] = [];
    if (typeof body.name !== "string" || body.name === "") details.push(missing("/name"));
    if (body.type === undefined) details.push(missing("/type"));
    else if (!["PHYSICAL", "DIGITAL", "SERVICE"].includes(String(body.type)))
      details.push(invalid("/type", body.type));
    if (details.length > 0) throw invalidRequest(details);
    const now = isoSeconds(new Date());
    const product: FakeProduct = {
      id: `PROD-${randomId(17)}`,
      name: String(body.name),
      type: String(body.type),
      ...(typeof body.description === "string" && { description: body.description }),
      ...(typeof body.category === "string" && { category: body.category }),
      create_time: now,
      update_time: now,
    };
    products.set(product.id, product);
    return { status: 201, body: { ...product, links: productLinks(product.id) } };
  }

  const productLinks = (id: string) => [
    { href: `${url}/v1/catalogs/products/${id}`, rel: "self", method: "GET" },
    { href: `${url}/v1/catalogs/products/${id}`, rel: "edit", method: "PATCH" },
  ];

  function parseBillingCycle(raw: unknown, index: number, details: Detail[]): FakeBillingCycle | undefined {
    const at = `/billing_cycles/${index}`;
    if (!isRecord(raw)) {
      details.push(invalid(at, undefined));
      return undefined;
    }
    const frequency = isRecord(raw.frequency) ? raw.frequency : undefined;
    const unit = frequency?.interval_unit;
    const count = frequency?.interval_count ?? 1;
    if (!frequency) details.push(missing(`${at}/frequency`));
    else if (!INTERVAL_UNITS.includes(unit as (typeof INTERVAL_UNITS)[number]))
      details.push(invalid(`${at}/frequency/interval_unit`, unit));
    if (!Number.isInteger(count) || (count as number) < 1)
      details.push(invalid(`${at}/frequency/interval_count`, count));
    if (raw.tenure_type !== "REGULAR" && raw.tenure_type !== "TRIAL")
      details.push(invalid(`${at}/tenure_type`, raw.tenure_type));
    if (!Number.isInteger(raw.sequence)) details.push(missing(`${at}/sequence`));
    const totalCycles = raw.total_cycles ?? 1;
    if (!Number.isInteger(totalCycles) || (totalCycles as number) < 0)
      details.push(invalid(`${at}/total_cycles`, totalCycles));
    const scheme = isRecord(raw.pricing_scheme) ? raw.pricing_scheme : undefined;
    const price = scheme && isRecord(scheme.fixed_price) ? scheme.fixed_price : undefined;
    if (raw.tenure_type === "REGULAR" && !price) details.push(missing(`${at}/pricing_scheme/fixed_price`));
    if (price) {
      if (typeof price.value !== "string" || !AMOUNT_PATTERN.test(price.value))
        details.push(invalid(`${at}/pricing_scheme/fixed_price/value`, price.value));
      if (typeof price.currency_code !== "string" || !/^[A-Z]{3}$/.test(price.currency_code))
        details.push(invalid(`${at}/pricing_scheme/fixed_price/currency_code`, price.currency_code));
    }
    if (details.length > 0) return undefined;
    return {
      frequency: {
        interval_unit: unit as FakeBillingCycle["frequency"]["interval_unit"],
        interval_count: count as number,
      },
      tenure_type: raw.tenure_type as FakeBillingCycle["tenure_type"],
      sequence: raw.sequence as number,
      total_cycles: totalCycles as number,
      ...(price && {
        pricing_scheme: {
          fixed_price: { value: String(price.value), currency_code: String(price.currency_code) },
        },
      }),
    };
  }

  function createPlan(body: Json): { status: number; body: Json } {
    const details: Detail[] = [];
    if (typeof body.product_id !== "string" || body.product_id === "") details.push(missing("/product_id"));
    else if (!products.has(body.product_id)) details.push(invalid("/product_id", body.product_id));
    if (typeof body.name !== "string" || body.name === "") details.push(missing("/name"));
    if (body.status !== undefined && body.status !== "CREATED" && body.status !== "ACTIVE")
      details.push(invalid("/status", body.status));
    if (!isRecord(body.payment_preferences)) details.push(missing("/payment_preferences"));
    const cycles: FakeBillingCycle[] = [];
    if (!Array.isArray(body.billing_cycles) || body.billing_cycles.length === 0) {
      details.push(missing("/billing_cycles"));
    } else {
      body.billing_cycles.forEach((raw, index) => {
        const cycle = parseBillingCycle(raw, index, details);
        if (cycle) cycles.push(cycle);
      });
      if (details.length === 0 && cycles.filter((c) => c.tenure_type === "REGULAR").length !== 1) {
        details.push(invalid("/billing_cycles", "exactly one REGULAR cycle is required"));
      }
      // PayPal: at most two trial cycles, each run a finite number of times, before the regular one
      const trials = cycles.filter((c) => c.tenure_type === "TRIAL");
      const regular = cycles.find((c) => c.tenure_type === "REGULAR");
      if (details.length === 0 && trials.length > 2)
        details.push(invalid("/billing_cycles", "at most two TRIAL cycles are allowed"));
      if (details.length === 0 && trials.some((c) => c.total_cycles < 1 || c.total_cycles > 999))
        details.push(invalid("/billing_cycles/0/total_cycles", "a TRIAL cycle runs 1 to 999 times"));
      if (details.length === 0 && regular && trials.some((c) => c.sequence >= regular.sequence))
        details.push(invalid("/billing_cycles", "TRIAL cycles come before the REGULAR one"));
    }
    if (details.length > 0) throw invalidRequest(details);
    const now = isoSeconds(new Date());
    const plan: FakePlan = {
      id: `P-${randomId(24)}`,
      product_id: String(body.product_id),
      name: String(body.name),
      ...(typeof body.description === "string" && { description: body.description }),
      status: (body.status as FakePlan["status"] | undefined) ?? "ACTIVE",
      billing_cycles: cycles,
      payment_preferences: body.payment_preferences as Json,
      create_time: now,
      update_time: now,
    };
    plans.set(plan.id, plan);
    return { status: 201, body: renderPlan(plan) };
  }

  const renderPlan = (plan: FakePlan): Json => ({
    ...plan,
    usage_type: "LICENSED",
    links: [
      { href: `${url}/v1/billing/plans/${plan.id}`, rel: "self", method: "GET" },
      { href: `${url}/v1/billing/plans/${plan.id}`, rel: "edit", method: "PATCH" },
      { href: `${url}/v1/billing/plans/${plan.id}/deactivate`, rel: "self", method: "POST" },
    ],
  });

  function requirePlan(id: string): FakePlan {
    const plan = plans.get(id);
    if (!plan) throw notFound();
    return plan;
  }

  function requireSubscription(id: string): FakeSubscription {
    const subscription = subscriptions.get(id);
    if (!subscription) throw notFound();
    return subscription;
  }

  function regularCycle(plan: FakePlan): FakeBillingCycle {
    const cycle = plan.billing_cycles.find((c) => c.tenure_type === "REGULAR");
    if (!cycle?.pricing_scheme) throw new Error(`fake PayPal: plan ${plan.id} has no priced REGULAR cycle`);
    return cycle;
  }

  /**
   * A subscription's plan override (`plan.billing_cycles`): it must follow the plan's cycles, so
   * each names a sequence the plan has, and may price it in the plan's currency.
   */
  function parsePlanOverride(
    plan: FakePlan,
    raw: unknown,
  ): Record<number, { value: string; currency_code: string }> {
    const details: Detail[] = [];
    const prices: Record<number, { value: string; currency_code: string }> = {};
    const cycles = isRecord(raw) ? raw.billing_cycles : undefined;
    if (!isRecord(raw)) details.push(invalid("/plan", undefined));
    else if (cycles !== undefined && !Array.isArray(cycles))
      details.push(invalid("/plan/billing_cycles", cycles));
    for (const [index, item] of (Array.isArray(cycles) ? cycles : []).entries()) {
      const at = `/plan/billing_cycles/${index}`;
      const own = isRecord(item) ? plan.billing_cycles.find((c) => c.sequence === item.sequence) : undefined;
      if (!isRecord(item) || !own) {
        details.push(invalid(`${at}/sequence`, isRecord(item) ? item.sequence : undefined));
        continue;
      }
      const scheme = isRecord(item.pricing_scheme) ? item.pricing_scheme : undefined;
      const price = scheme && isRecord(scheme.fixed_price) ? scheme.fixed_price : undefined;
      if (item.pricing_scheme !== undefined && !price) {
        details.push(missing(`${at}/pricing_scheme/fixed_price`));
        continue;
      }
      if (!price) continue;
      const currency = regularCycle(plan).pricing_scheme?.fixed_price.currency_code;
      if (typeof price.value !== "string" || !AMOUNT_PATTERN.test(price.value))
        details.push(invalid(`${at}/pricing_scheme/fixed_price/value`, price.value));
      else if (typeof price.currency_code !== "string" || price.currency_code !== currency)
        details.push(invalid(`${at}/pricing_scheme/fixed_price/currency_code`, price.currency_code));
      else prices[own.sequence] = { value: price.value, currency_code: price.currency_code };
    }
    if (details.length > 0) throw invalidRequest(details);
    return prices;
  }

  /** A cycle's price for one subscription: its plan override's, else the plan's. */
  function cyclePrice(subscription: FakeSubscription, cycle: FakeBillingCycle) {
    return subscription.cycle_prices?.[cycle.sequence] ?? cycle.pricing_scheme?.fixed_price;
  }

  /** Takes one payment of the subscription's current cycle at `at`, and moves its billing on. */
  function bill(subscription: FakeSubscription, plan: FakePlan, at: Date): void {
    const cycles = [...plan.billing_cycles].sort((a, b) => a.sequence - b.sequence);
    let current = subscription.current_cycle ?? { sequence: cycles[0]?.sequence ?? 1, completed: 0 };
    let cycle = cycles.find((c) => c.sequence === current.sequence);
    // a finite cycle whose payments were all taken gives way to the next one
    if (cycle && cycle.total_cycles > 0 && current.completed >= cycle.total_cycles) {
      const next = cycles.find((c) => c.sequence > current.sequence);
      if (next) {
        current = { sequence: next.sequence, completed: 0 };
        cycle = next;
      }
    }
    if (!cycle) throw new Error(`fake PayPal: plan ${plan.id} has no billing cycle`);
    current.completed += 1;
    subscription.current_cycle = current;
    const price = cyclePrice(subscription, cycle) ?? { value: "0", currency_code: "USD" };
    // a free TRIAL cycle takes nothing: PayPal reports no payment for it
    const free = Number(price.value) === 0;
    const info = subscription.billing_info;
    if (!info) throw new Error(`fake PayPal: subscription ${subscription.id} was never approved`);
    info.cycle_executions = cycles.map((c) => ({
      tenure_type: c.tenure_type,
      sequence: c.sequence,
      cycles_completed:
        c.sequence < current.sequence
          ? c.total_cycles
          : c.sequence === current.sequence
            ? current.completed
            : 0,
      cycles_remaining:
        c.total_cycles === 0
          ? 0
          : c.total_cycles -
            (c.sequence < current.sequence
              ? c.total_cycles
              : c.sequence === current.sequence
                ? current.completed
                : 0),
      current_pricing_scheme_version: 1,
      total_cycles: c.total_cycles,
    }));
    if (!free)
      info.last_payment = {
        amount: { currency_code: price.currency_code, value: price.value },
        time: isoSeconds(at),
      };
    info.next_billing_time = isoSeconds(
      addInterval(at, cycle.frequency.interval_unit, cycle.frequency.interval_count),
    );
  }

  function createSubscription(body: Json): { status: number; body: Json } {
    const details: Detail[] = [];
    const context = body.application_context;
    if (typeof body.plan_id !== "string" || body.plan_id === "") details.push(missing("/plan_id"));
    else if (!plans.has(body.plan_id)) details.push(invalid("/plan_id", body.plan_id));
    if (body.custom_id !== undefined && (typeof body.custom_id !== "string" || body.custom_id.length > 127))
      details.push(invalid("/custom_id", body.custom_id));
    if (context !== undefined && !isRecord(context)) details.push(invalid("/application_context", undefined));
    if (isRecord(context)) {
      for (const key of ["return_url", "cancel_url"]) {
        const value = context[key];
        if (value === undefined) continue;
        if (typeof value !== "string" || !URL.canParse(value))
          details.push(invalid(`/application_context/${key}`, value));
      }
      if (
        context.shipping_preference !== undefined &&
        !["GET_FROM_FILE", "NO_SHIPPING", "SET_PROVIDED_ADDRESS"].includes(
          String(context.shipping_preference),
        )
      )
        details.push(invalid("/application_context/shipping_preference", context.shipping_preference));
      if (
        context.user_action !== undefined &&
        !["CONTINUE", "SUBSCRIBE_NOW"].includes(String(context.user_action))
      )
        details.push(invalid("/application_context/user_action", context.user_action));
    }
    if (details.length > 0) throw invalidRequest(details);
    const plan = requirePlan(String(body.plan_id));
    if (plan.status !== "ACTIVE")
      throw unprocessable("PLAN_STATUS_INVALID", "Invalid plan status. Plan must be ACTIVE.");
    const cyclePrices = body.plan === undefined ? undefined : parsePlanOverride(plan, body.plan);
    const now = isoSeconds(new Date());
    const subscription: FakeSubscription = {
      id: `I-${randomId(12)}`,
      plan_id: plan.id,
      status: "APPROVAL_PENDING",
      status_update_time: now,
      ...(typeof body.custom_id === "string" && { custom_id: body.custom_id }),
      quantity: "1",
      create_time: now,
      update_time: now,
      plan_overridden: cyclePrices !== undefined,
      ...(cyclePrices && { cycle_prices: cyclePrices }),
      ba_token: `BA-${randomId(17)}`,
      ...(isRecord(context) && { application_context: context }),
    };
    subscriptions.set(subscription.id, subscription);
    return {
      status: 201,
      body: {
        id: subscription.id,
        status: subscription.status,
        status_update_time: subscription.status_update_time,
        plan_id: subscription.plan_id,
        plan_overridden: subscription.plan_overridden,
        ...(subscription.custom_id !== undefined && { custom_id: subscription.custom_id }),
        create_time: subscription.create_time,
        links: subscriptionLinks(subscription),
      },
    };
  }

  function subscriptionLinks(subscription: FakeSubscription): Json[] {
    const self = `${url}/v1/billing/subscriptions/${subscription.id}`;
    if (subscription.status === "APPROVAL_PENDING") {
      return [
        { href: `${url}/checkoutnow?ba_token=${subscription.ba_token}`, rel: "approve", method: "GET" },
        { href: self, rel: "edit", method: "PATCH" },
        { href: self, rel: "self", method: "GET" },
      ];
    }
    const links: Json[] = [{ href: self, rel: "self", method: "GET" }];
    if (subscription.status === "ACTIVE" || subscription.status === "SUSPENDED") {
      links.push({ href: `${self}/cancel`, rel: "cancel", method: "POST" });
    }
    if (subscription.status === "ACTIVE")
      links.push({ href: `${self}/suspend`, rel: "suspend", method: "POST" });
    if (subscription.status === "SUSPENDED" || subscription.status === "APPROVED") {
      links.push({ href: `${self}/activate`, rel: "activate", method: "POST" });
    }
    return links;
  }

  function renderSubscription(subscription: FakeSubscription): Json {
    const {
      ba_token: _token,
      application_context: _context,
      cycle_prices: _prices,
      current_cycle: _cycle,
      ...visible
    } = subscription;
    const plan = plans.get(subscription.plan_id);
    const price = plan ? regularCycle(plan).pricing_scheme?.fixed_price : undefined;
    return {
      ...visible,
      ...(price &&
        subscription.status !== "APPROVAL_PENDING" && {
          shipping_amount: { currency_code: price.currency_code, value: "0.0" },
        }),
      links: subscriptionLinks(subscription),
    };
  }

  const transitions = {
    cancel: { from: ["ACTIVE", "SUSPENDED"], to: "CANCELLED", should: "active or suspended" },
    suspend: { from: ["ACTIVE"], to: "SUSPENDED", should: "active" },
    activate: { from: ["SUSPENDED", "APPROVED"], to: "ACTIVE", should: "suspended" },
  } as const satisfies Record<
    string,
    { from: FakeSubscriptionStatus[]; to: FakeSubscriptionStatus; should: string }
  >;

  function changeStatus(
    id: string,
    action: keyof typeof transitions,
    body: Json,
  ): { status: number; body: undefined } {
    const subscription = requireSubscription(id);
    const reason = body.reason;
    if (action !== "activate" && reason === undefined) throw invalidRequest([missing("/reason")]);
    if (reason !== undefined && (typeof reason !== "string" || reason.length > 128)) {
      throw invalidRequest([invalid("/reason", reason)]);
    }
    const rule = transitions[action];
    if (!(rule.from as readonly FakeSubscriptionStatus[]).includes(subscription.status)) {
      throw unprocessable(
        "SUBSCRIPTION_STATUS_INVALID",
        `Invalid subscription status for ${action} action; subscription status should be ${rule.should}.`,
      );
    }
    setStatus(subscription, rule.to);
    if (typeof reason === "string") subscription.status_change_note = reason;
    if (rule.to === "CANCELLED" && subscription.billing_info)
      delete subscription.billing_info.next_billing_time;
    return { status: 204, body: undefined };
  }

  function setStatus(subscription: FakeSubscription, status: FakeSubscriptionStatus): void {
    const now = isoSeconds(new Date());
    subscription.status = status;
    subscription.status_update_time = now;
    subscription.update_time = now;
  }

  function expectedSignature(
    transmissionId: string,
    time: string,
    forWebhookId: string,
    event: unknown,
  ): Buffer {
    // Like PayPal's: transmission id | time | webhook id | CRC32 of the event body.
    const message = `${transmissionId}|${time}|${forWebhookId}|${crc32(JSON.stringify(event))}`;
    return createHmac("sha256", signingKey).update(message).digest();
  }

  function verifyWebhook(body: Json): { status: number; body: Json } {
    const required = [
      "auth_algo",
      "cert_url",
      "transmission_id",
      "transmission_sig",
      "transmission_time",
      "webhook_id",
    ] as const;
    const details: Detail[] = required
      .filter((key) => typeof body[key] !== "string" || body[key] === "")
      .map((key) => missing(`/${key}`));
    if (!isRecord(body.webhook_event)) details.push(missing("/webhook_event"));
    if (details.length > 0) throw invalidRequest(details);
    if (webhookVerification !== "SIGNATURE")
      return { status: 200, body: { verification_status: webhookVerification } };
    const expected = expectedSignature(
      String(body.transmission_id),
      String(body.transmission_time),
      String(body.webhook_id),
      body.webhook_event,
    );
    const given = Buffer.from(String(body.transmission_sig), "base64");
    const ok =
      body.auth_algo === "SHA256withRSA" &&
      String(body.cert_url).startsWith(`${url}/v1/notifications/certs/`) &&
      body.webhook_id === webhookId &&
      given.length === expected.length &&
      timingSafeEqual(given, expected);
    return { status: 200, body: { verification_status: ok ? "SUCCESS" : "FAILURE" } };
  }

  function checkoutPage(query: URLSearchParams): {
    status: number;
    body: string;
    headers: Record<string, string>;
  } {
    const token = query.get("ba_token") ?? "";
    const orderId = query.get("token") ?? "";
    if (!token && ordersApi.orders.has(orderId)) {
      const html = `<!doctype html><title>Fake PayPal</title><h1>Fake PayPal: pay order ${orderId}</h1>
<a id="approve" href="/checkoutnow/approve?token=${orderId}">Pay now</a>
<a id="cancel" href="/checkoutnow/cancel?token=${orderId}">Cancel and return</a>`;
      return { status: 200, body: html, headers: { "content-type": "text/html; charset=utf-8" } };
    }
    const subscription = [...subscriptions.values()].find((s) => s.ba_token === token);
    if (!subscription)
      return { status: 404, body: "Unknown approval token", headers: { "content-type": "text/plain" } };
    const html = `<!doctype html><title>Fake PayPal</title><h1>Fake PayPal: approve ${subscription.id}</h1>
<a id="approve" href="/checkoutnow/approve?ba_token=${token}">Subscribe</a>
<a id="cancel" href="/checkoutnow/cancel?ba_token=${token}">Cancel and return</a>`;
    return { status: 200, body: html, headers: { "content-type": "text/html; charset=utf-8" } };
  }

  /** The buyer's browser leaving the fake checkout, back to the merchant like PayPal does. */
  function checkoutDecision(
    decision: string,
    query: URLSearchParams,
  ): { status: number; body: string; headers: Record<string, string> } {
    const token = query.get("ba_token") ?? "";
    const orderId = query.get("token") ?? "";
    if (!token && ordersApi.orders.has(orderId)) {
      const order = ordersApi.orders.get(orderId);
      const pending = order?.status === "CREATED" || order?.status === "PAYER_ACTION_REQUIRED";
      if (decision === "approve" && pending) ordersApi.approveOrder(orderId);
      const back = ordersApi.returnUrlOf(orderId, decision === "approve");
      if (!back) return { status: 404, body: "Unknown order", headers: { "content-type": "text/plain" } };
      return { status: 302, body: "", headers: { location: back } };
    }
    const subscription = [...subscriptions.values()].find((s) => s.ba_token === token);
    const context = subscription?.application_context;
    const target = decision === "approve" ? context?.return_url : context?.cancel_url;
    if (!subscription || typeof target !== "string") {
      return { status: 404, body: "Unknown approval token", headers: { "content-type": "text/plain" } };
    }
    const location = new URL(target);
    if (decision === "approve") {
      approve(subscription.id);
      location.searchParams.set("subscription_id", subscription.id);
    }
    location.searchParams.set("ba_token", token);
    location.searchParams.set("token", randomId(17));
    return { status: 302, body: "", headers: { location: location.toString() } };
  }

  type Result = { status: number; body: Json | undefined };
  type Handler = (params: string[], body: Json) => Result;

  function changePlanStatus(id: string, activating: boolean): Result {
    const plan = requirePlan(id);
    if (activating ? plan.status === "ACTIVE" : plan.status !== "ACTIVE") {
      throw unprocessable(
        "PLAN_STATUS_INVALID",
        activating
          ? "Invalid plan status for activate action; plan status should be inactive or created."
          : "Invalid plan status for deactivate action; plan status should be active.",
      );
    }
    plan.status = activating ? "ACTIVE" : "INACTIVE";
    plan.update_time = isoSeconds(new Date());
    return { status: 204, body: undefined };
  }

  const routes: [method: string, pattern: RegExp, handler: Handler][] = [
    ["POST", /^\/v1\/catalogs\/products$/, (_, body) => createProduct(body)],
    [
      "GET",
      /^\/v1\/catalogs\/products\/([^/]+)$/,
      ([id]) => {
        const product = products.get(id ?? "");
        if (!product) throw notFound();
        return { status: 200, body: { ...product, links: productLinks(product.id) } };
      },
    ],
    ["POST", /^\/v1\/billing\/plans$/, (_, body) => createPlan(body)],
    [
      "GET",
      /^\/v1\/billing\/plans\/([^/]+)$/,
      ([id]) => ({ status: 200, body: renderPlan(requirePlan(id ?? "")) }),
    ],
    [
      "POST",
      /^\/v1\/billing\/plans\/([^/]+)\/(activate|deactivate)$/,
      ([id, action]) => changePlanStatus(id ?? "", action === "activate"),
    ],
    ["POST", /^\/v1\/billing\/subscriptions$/, (_, body) => createSubscription(body)],
    [
      "GET",
      /^\/v1\/billing\/subscriptions\/([^/]+)$/,
      ([id]) => ({ status: 200, body: renderSubscription(requireSubscription(id ?? "")) }),
    ],
    [
      "POST",
      /^\/v1\/billing\/subscriptions\/([^/]+)\/(cancel|suspend|activate)$/,
      ([id, action], body) => changeStatus(id ?? "", action as keyof typeof transitions, body),
    ],
    ["POST", /^\/v1\/notifications\/verify-webhook-signature$/, (_, body) => verifyWebhook(body)],
    ...ordersApi.routes,
  ];

  function route(method: string, path: string, headers: IncomingHttpHeaders, body: unknown): Result {
    if (method === "POST" && path === "/v1/oauth2/token") {
      return issueToken(headers, typeof body === "string" ? body : "");
    }
    authenticate(headers);
    for (const [verb, pattern, handler] of routes) {
      const match = verb === method ? pattern.exec(path) : null;
      if (match)
        return handler(
          match.slice(1).map((segment) => decodeURIComponent(segment)),
          isRecord(body) ? body : {},
        );
    }
    throw paypalError(404, "NOT_FOUND", "The requested resource was not found.");
  }

  function takeFailure(path: string): { status?: number; delayMs: number } | undefined {
    const index = failures.findIndex((f) => f.path === undefined || path.startsWith(f.path));
    const failure = failures[index];
    if (!failure) return undefined;
    failure.remaining -= 1;
    if (failure.remaining <= 0) failures.splice(index, 1);
    return failure;
  }

  function sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  }

  function sendJson(res: ServerResponse, status: number, body: Json | undefined): void {
    const headers: Record<string, string> = { "paypal-debug-id": debugId() };
    if (body === undefined) {
      res.writeHead(status, headers).end();
      return;
    }
    headers["content-type"] = "application/json";
    res.writeHead(status, headers).end(JSON.stringify(body));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? "GET";
    const target = new URL(req.url ?? "/", url);
    const path = target.pathname;
    const raw = await readBody(req);
    let body: unknown;
    let malformed = false;
    if (raw !== "") {
      if ((req.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded")) body = raw;
      else {
        try {
          body = JSON.parse(raw);
        } catch {
          malformed = true;
          body = raw;
        }
      }
    }
    requests.push({ method, path, query: target.search, headers: req.headers, body });

    const failure = takeFailure(path);
    if (failure) {
      if (failure.delayMs > 0) await sleep(failure.delayMs);
      if (res.destroyed) return;
      if (failure.status !== undefined) {
        const unavailable = failure.status === 503;
        sendJson(
          res,
          failure.status,
          paypalError(
            failure.status,
            unavailable ? "SERVICE_UNAVAILABLE" : "INTERNAL_SERVER_ERROR",
            unavailable ? "Service Unavailable." : "An internal server error has occurred.",
          ).body,
        );
        return;
      }
    }

    if (method === "GET" && path === "/checkoutnow") {
      const page = checkoutPage(target.searchParams);
      res.writeHead(page.status, page.headers).end(page.body);
      return;
    }
    const decision = /^\/checkoutnow\/(approve|cancel)$/.exec(path);
    if (method === "GET" && decision) {
      const page = checkoutDecision(decision[1] ?? "", target.searchParams);
      res.writeHead(page.status, page.headers).end(page.body);
      return;
    }

    try {
      if (malformed) {
        throw paypalError(
          400,
          "INVALID_REQUEST",
          "Request is not well-formed, syntactically incorrect, or violates schema.",
          [{ issue: "MALFORMED_REQUEST_JSON", description: "The request JSON is not well formed." }],
        );
      }
      const requestId = req.headers["paypal-request-id"];
      const idempotencyKey =
        method === "POST" && typeof requestId === "string" && path !== "/v1/oauth2/token"
          ? `${method} ${path} ${requestId}`
          : undefined;
      const replay = idempotencyKey ? idempotent.get(idempotencyKey) : undefined;
      if (replay) {
        authenticate(req.headers);
        sendJson(res, replay.status, replay.body);
        return;
      }
      const result = await route(method, path, req.headers, body);
      if (idempotencyKey) idempotent.set(idempotencyKey, result);
      sendJson(res, result.status, result.body);
    } catch (error) {
      if (error instanceof HttpError) sendJson(res, error.status, error.body);
      else sendJson(res, 500, paypalError(500, "INTERNAL_SERVER_ERROR", String(error)).body);
    }
  }

  function approve(
    subscriptionId: string,
    options: {
      payer?: { email?: string; givenName?: string; surname?: string; country?: string };
      at?: Date;
    } = {},
  ): FakeSubscription {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`fake PayPal: unknown subscription ${subscriptionId}`);
    if (subscription.status !== "APPROVAL_PENDING") {
      throw new Error(
        `fake PayPal: subscription ${subscriptionId} is ${subscription.status}, not APPROVAL_PENDING`,
      );
    }
    const plan = plans.get(subscription.plan_id);
    if (!plan) throw new Error(`fake PayPal: unknown plan ${subscription.plan_id}`);
    const currency = regularCycle(plan).pricing_scheme?.fixed_price.currency_code ?? "USD";
    const at = options.at ?? new Date();
    const payer = options.payer ?? {};
    setStatus(subscription, "ACTIVE");
    subscription.start_time = isoSeconds(at);
    const givenName = payer.givenName ?? "John";
    const surname = payer.surname ?? "Doe";
    subscription.subscriber = {
      name: { given_name: givenName, surname },
      email_address: payer.email ?? "buyer@example.com",
      payer_id: randomId(13),
      ...(payer.country && {
        shipping_address: {
          name: { full_name: `${givenName} ${surname}` },
          address: { country_code: payer.country },
        },
      }),
    };
    subscription.billing_info = {
      outstanding_balance: { currency_code: currency, value: "0.0" },
      cycle_executions: [],
      failed_payments_count: 0,
    };
    // the first payment is taken at approval, at the price of the plan's first cycle (none for a free trial)
    bill(subscription, plan, at);
    return subscription;
  }

  function signedWebhook(event: {
    event_type: string;
    resource: object;
    id?: string;
    summary?: string;
    resource_type?: string;
  }): FakeWebhookDelivery {
    const kind = event.event_type.startsWith("BILLING.SUBSCRIPTION.")
      ? "subscription"
      : event.event_type.startsWith("PAYMENT.SALE.")
        ? "sale"
        : "resource";
    const id = event.id ?? `WH-${randomId(17)}-${randomId(17)}`;
    const body: FakeWebhookDelivery["body"] = {
      id,
      event_version: "1.0",
      create_time: new Date().toISOString(),
      resource_type: event.resource_type ?? kind,
      resource_version: "2.0",
      event_type: event.event_type,
      summary: event.summary ?? `${event.event_type} event`,
      resource: event.resource,
      links: [
        { href: `${url}/v1/notifications/webhooks-events/${id}`, rel: "self", method: "GET" },
        { href: `${url}/v1/notifications/webhooks-events/${id}/resend`, rel: "resend", method: "POST" },
      ],
    };
    const transmissionId = randomUUID();
    const transmissionTime = new Date().toISOString();
    return {
      headers: {
        "content-type": "application/json",
        "paypal-auth-algo": "SHA256withRSA",
        "paypal-auth-version": "v2",
        "paypal-cert-url": `${url}/v1/notifications/certs/CERT-360caa42-fca2a594-fake`,
        "paypal-transmission-id": transmissionId,
        "paypal-transmission-sig": expectedSignature(
          transmissionId,
          transmissionTime,
          webhookId,
          body,
        ).toString("base64"),
        "paypal-transmission-time": transmissionTime,
      },
      body,
      rawBody: JSON.stringify(body),
    };
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { name: "INTERNAL_SERVER_ERROR", message: String(error) });
    });
  });
  // The fake shares its event loop with the API under test (and PGlite's WASM): a stall of a few
  // seconds let Node's 5 s keep-alive close a socket the client was reusing (ECONNRESET, seen
  // with twenty calls at once). An idle connection here lives as long as the client keeps it.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    clientId,
    clientSecret,
    webhookId,
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    approve,
    renew(id, at = new Date()) {
      const subscription = subscriptions.get(id);
      if (!subscription) throw new Error(`fake PayPal: unknown subscription ${id}`);
      if (subscription.status !== "ACTIVE")
        throw new Error(`fake PayPal: subscription ${id} is ${subscription.status}, not ACTIVE`);
      bill(subscription, requirePlan(subscription.plan_id), at);
      setStatus(subscription, "ACTIVE");
      return subscription;
    },
    approveOrder: ordersApi.approveOrder,
    orders: ordersApi.orders,
    captures: ordersApi.captures,
    refunds: ordersApi.refunds,
    setSubscriptionStatus(id, status) {
      const subscription = subscriptions.get(id);
      if (!subscription) throw new Error(`fake PayPal: unknown subscription ${id}`);
      setStatus(subscription, status);
      if ((status === "CANCELLED" || status === "EXPIRED") && subscription.billing_info) {
        delete subscription.billing_info.next_billing_time;
      }
      return subscription;
    },
    failNext(n, options) {
      failures.push({
        remaining: n,
        delayMs: options.delayMs ?? 0,
        ...(options.status !== undefined && { status: options.status }),
        ...(options.path !== undefined && { path: options.path }),
      });
    },
    expireTokens() {
      tokens.clear();
    },
    setWebhookVerification(mode) {
      webhookVerification = mode;
    },
    signedWebhook,
    requests,
    products,
    plans,
    subscriptions,
  };
}
