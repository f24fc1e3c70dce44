import { randomUUID } from "node:crypto";
import { z } from "zod";
import { centsToPaypalValue, paypalValueToCents } from "./amount";

export { centsToPaypalValue, paypalValueToCents } from "./amount";

/**
 * PayPal REST client (OAuth2 client credentials, catalog products, billing plans,
 * subscriptions, webhook signature verification). Server-side only: it holds the secret.
 */

export interface PaypalClientOptions {
  /** https://api-m.sandbox.paypal.com, https://api-m.paypal.com, or a local fake. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Per request, including reading the response body. Default 10 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  logger?: { warn(obj: object, msg?: string): void };
}

export interface PaypalErrorDetail {
  issue: string;
  description?: string;
  field?: string;
}

/**
 * Every failed PayPal call: a non-2xx answer (`status` is the HTTP status, `name` PayPal's
 * error name such as RESOURCE_NOT_FOUND) or no answer at all (`status` 0, `name` TIMEOUT or
 * NETWORK_ERROR). The message never contains credentials or tokens.
 */
export class PaypalError extends Error {
  override readonly name: string;
  readonly status: number;
  readonly debugId: string | undefined;
  readonly details: PaypalErrorDetail[];

  constructor(init: {
    status: number;
    name: string;
    message: string;
    debugId?: string | undefined;
    details?: PaypalErrorDetail[];
  }) {
    super(init.message);
    this.name = init.name;
    this.status = init.status;
    this.debugId = init.debugId;
    this.details = init.details ?? [];
  }

  /** True when PayPal refused because of the resource's state (e.g. cancelling a cancelled subscription). */
  hasIssue(issue: string): boolean {
    return this.details.some((d) => d.issue === issue);
  }
}

const PAYPAL_SUBSCRIPTION_STATUSES = [
  "APPROVAL_PENDING",
  "APPROVED",
  "ACTIVE",
  "SUSPENDED",
  "CANCELLED",
  "EXPIRED",
] as const;
type PaypalSubscriptionStatus = (typeof PAYPAL_SUBSCRIPTION_STATUSES)[number];

interface PaypalSubscription {
  id: string;
  status: PaypalSubscriptionStatus;
  planId: string;
  customId?: string;
  statusUpdateTime?: Date;
  startTime?: Date;
  nextBillingTime?: Date;
  lastPayment?: { amountCents: number; currency: string; time: Date };
  failedPaymentsCount?: number;
  subscriber?: { email?: string; payerId?: string };
}

type PaypalInterval = "MONTH" | "YEAR";

interface CreatePlanInput {
  productId: string;
  name: string;
  description?: string;
  amountCents: number;
  currency: string;
  interval: PaypalInterval;
  /** PayPal's default is ACTIVE; pass CREATED to review the plan before `activatePlan`. */
  status?: "CREATED" | "ACTIVE";
  requestId?: string;
}

interface CreateSubscriptionInput {
  planId: string;
  returnUrl: string;
  cancelUrl: string;
  /** Our reference (the customer plan id); PayPal echoes it in GET and in webhooks. */
  customId: string;
  /** BCP 47 with region, e.g. "fr-FR". */
  locale?: string;
  brandName?: string;
  requestId?: string;
}

interface CreateOrderInput {
  amountCents: number;
  currency: string;
  /** Our reference (the purchase id): PayPal echoes it on the order and its capture. */
  customId: string;
  description: string;
  returnUrl: string;
  cancelUrl: string;
  locale?: string;
  brandName?: string;
  requestId?: string;
}

/** An order as we read it: its status, the payer's country and the capture once there is one. */
interface PaypalOrder {
  id: string;
  status: string;
  customId?: string;
  payerCountry?: string;
  capture?: { id: string; status: string; amountCents: number; currency: string };
}

export interface PaypalClient {
  getAccessToken(): Promise<string>;
  createProduct(input: {
    name: string;
    description?: string;
    type: "SERVICE";
    category?: string;
    requestId?: string;
  }): Promise<{ id: string }>;
  createPlan(input: CreatePlanInput): Promise<{ id: string; status: string }>;
  activatePlan(id: string): Promise<void>;
  deactivatePlan(id: string): Promise<void>;
  createSubscription(
    input: CreateSubscriptionInput,
  ): Promise<{ id: string; status: PaypalSubscriptionStatus; approveUrl: string }>;
  getSubscription(id: string): Promise<PaypalSubscription>;
  cancelSubscription(id: string, reason: string): Promise<void>;
  suspendSubscription(id: string, reason: string): Promise<void>;
  activateSubscription(id: string, reason: string): Promise<void>;
  /**
   * Orders v2: an order of one purchase unit, intent CAPTURE, approved by the buyer on PayPal's
   * page (`payer-action` link, with `payment_source.paypal.experience_context`), then captured.
   */
  createOrder(input: CreateOrderInput): Promise<{ id: string; status: string; approveUrl: string }>;
  getOrder(id: string): Promise<PaypalOrder>;
  /** Captures an approved order (PayPal answers 422 ORDER_NOT_APPROVED or ORDER_ALREADY_CAPTURED otherwise). */
  captureOrder(id: string, requestId?: string): Promise<PaypalOrder>;
  /** Payments v2: refunds a capture, whole when `amountCents` is left out. */
  refundCapture(
    captureId: string,
    input: { amountCents?: number; currency?: string; note?: string; requestId?: string },
  ): Promise<{ id: string; status: string }>;
  /**
   * Asks PayPal whether a webhook delivery is genuine. `body` is the parsed event as received.
   * False when the headers are missing (PayPal is not called) or PayPal says FAILURE; throws
   * PaypalError when PayPal cannot answer (the caller should answer 5xx so PayPal redelivers).
   */
  verifyWebhookSignature(input: {
    headers: Record<string, string | string[] | undefined>;
    body: unknown;
    webhookId: string;
  }): Promise<boolean>;
}

const TOKEN_PATH = "/v1/oauth2/token";
const DEFAULT_TIMEOUT_MS = 10_000;

const tokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().positive(),
});

/** PayPal's REST error body, or the OAuth one ({error, error_description}) of the token and auth layers. */
const errorBodySchema = z.object({
  name: z.string().optional(),
  message: z.string().optional(),
  debug_id: z.string().optional(),
  details: z
    .array(
      z.object({
        issue: z.string(),
        description: z.string().optional(),
        field: z.string().optional(),
      }),
    )
    .optional(),
  error: z.string().optional(),
  error_description: z.string().optional(),
});

const linkSchema = z.object({ href: z.string(), rel: z.string(), method: z.string().optional() });

const productSchema = z.object({ id: z.string() });
const planSchema = z.object({ id: z.string(), status: z.string() });
const createdSubscriptionSchema = z.object({
  id: z.string(),
  status: z.enum(PAYPAL_SUBSCRIPTION_STATUSES),
  links: z.array(linkSchema).default([]),
});

const dateSchema = z
  .string()
  .transform((value) => new Date(value))
  .refine((date) => !Number.isNaN(date.getTime()), "invalid date-time");

const moneySchema = z.object({ currency_code: z.string(), value: z.string() });

const subscriptionSchema = z
  .object({
    id: z.string(),
    status: z.enum(PAYPAL_SUBSCRIPTION_STATUSES),
    plan_id: z.string(),
    custom_id: z.string().optional(),
    status_update_time: dateSchema.optional(),
    start_time: dateSchema.optional(),
    subscriber: z
      .object({ email_address: z.string().optional(), payer_id: z.string().optional() })
      .optional(),
    billing_info: z
      .object({
        next_billing_time: dateSchema.optional(),
        failed_payments_count: z.number().optional(),
        last_payment: z.object({ amount: moneySchema, time: dateSchema }).optional(),
      })
      .optional(),
  })
  .transform((raw): PaypalSubscription => {
    const billing = raw.billing_info;
    const last = billing?.last_payment;
    return {
      id: raw.id,
      status: raw.status,
      planId: raw.plan_id,
      ...(raw.custom_id !== undefined && { customId: raw.custom_id }),
      ...(raw.status_update_time && { statusUpdateTime: raw.status_update_time }),
      ...(raw.start_time && { startTime: raw.start_time }),
      ...(billing?.next_billing_time && { nextBillingTime: billing.next_billing_time }),
      ...(billing?.failed_payments_count !== undefined && {
        failedPaymentsCount: billing.failed_payments_count,
      }),
      ...(last && {
        lastPayment: {
          amountCents: paypalValueToCents(last.amount.value, last.amount.currency_code),
          currency: last.amount.currency_code,
          time: last.time,
        },
      }),
      ...(raw.subscriber && {
        subscriber: {
          ...(raw.subscriber.email_address !== undefined && { email: raw.subscriber.email_address }),
          ...(raw.subscriber.payer_id !== undefined && { payerId: raw.subscriber.payer_id }),
        },
      }),
    };
  });

const createdOrderSchema = z.object({
  id: z.string(),
  status: z.string(),
  links: z.array(linkSchema).default([]),
});

const orderSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    purchase_units: z
      .array(
        z.object({
          custom_id: z.string().optional(),
          payments: z
            .object({
              captures: z
                .array(z.object({ id: z.string(), status: z.string(), amount: moneySchema }))
                .default([]),
            })
            .optional(),
        }),
      )
      .default([]),
    payer: z.object({ address: z.object({ country_code: z.string() }).optional() }).optional(),
  })
  .transform((raw): PaypalOrder => {
    const unit = raw.purchase_units[0];
    const capture = unit?.payments?.captures[0];
    const country = raw.payer?.address?.country_code;
    return {
      id: raw.id,
      status: raw.status,
      ...(unit?.custom_id !== undefined && { customId: unit.custom_id }),
      ...(country !== undefined && { payerCountry: country }),
      ...(capture && {
        capture: {
          id: capture.id,
          status: capture.status,
          amountCents: paypalValueToCents(capture.amount.value, capture.amount.currency_code),
          currency: capture.amount.currency_code,
        },
      }),
    };
  });

const refundSchema = z.object({ id: z.string(), status: z.string() });

const verificationSchema = z.object({ verification_status: z.string() });

/** The webhook headers PayPal sends, in the order of the verify call's fields. */
const WEBHOOK_HEADERS = {
  auth_algo: "paypal-auth-algo",
  cert_url: "paypal-cert-url",
  transmission_id: "paypal-transmission-id",
  transmission_sig: "paypal-transmission-sig",
  transmission_time: "paypal-transmission-time",
} as const;

interface RawResponse {
  status: number;
  body: unknown;
  debugId: string | undefined;
}

interface SendOptions {
  authorization: string;
  json?: unknown;
  form?: string;
  requestId?: string | undefined;
}

export function createPaypalClient(opts: PaypalClientOptions): PaypalClient {
  const baseUrl = opts.baseUrl.replace(/\/+$/, "");
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const basicCredentials = Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString("base64");

  let cachedToken: { value: string; refreshAt: number } | undefined;
  let pendingToken: Promise<string> | undefined;

  /** Belt and braces: nothing we put in an error message or log may carry a credential. */
  function redact(text: string): string {
    let out = text;
    for (const secret of [opts.clientSecret, basicCredentials, cachedToken?.value]) {
      if (secret && secret.length >= 6) out = out.split(secret).join("[redacted]");
    }
    return out;
  }

  function fail(
    init: ConstructorParameters<typeof PaypalError>[0],
    method: string,
    path: string,
  ): PaypalError {
    const error = new PaypalError({ ...init, message: redact(init.message) });
    opts.logger?.warn(
      { paypal: { method, path, status: error.status, name: error.name, debugId: error.debugId } },
      "PayPal request failed",
    );
    return error;
  }

  async function send(method: string, path: string, options: SendOptions): Promise<RawResponse> {
    const headers: Record<string, string> = {
      authorization: options.authorization,
      accept: "application/json",
    };
    let body: string | undefined;
    if (options.form !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = options.form;
    } else if (options.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.json);
    }
    if (options.requestId) headers["paypal-request-id"] = options.requestId;

    try {
      const response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers,
        body: body ?? null,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      let parsed: unknown;
      if (text) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
      }
      return {
        status: response.status,
        body: parsed,
        debugId: response.headers.get("paypal-debug-id") ?? undefined,
      };
    } catch (cause) {
      const timedOut =
        cause instanceof Error && (cause.name === "TimeoutError" || cause.name === "AbortError");
      throw fail(
        {
          status: 0,
          name: timedOut ? "TIMEOUT" : "NETWORK_ERROR",
          message: timedOut
            ? `PayPal ${method} ${path} timed out after ${timeoutMs} ms`
            : `PayPal ${method} ${path} failed: ${cause instanceof Error ? cause.message : "network error"}`,
        },
        method,
        path,
      );
    }
  }

  function errorFrom(method: string, path: string, response: RawResponse): PaypalError {
    const parsed = errorBodySchema.safeParse(response.body);
    const body = parsed.success ? parsed.data : {};
    const name = body.name ?? body.error ?? `HTTP_${response.status}`;
    const description = body.message ?? body.error_description ?? "no error description";
    return fail(
      {
        status: response.status,
        name,
        message: `PayPal ${method} ${path} failed with ${response.status} ${name}: ${description}`,
        debugId: body.debug_id ?? response.debugId,
        details: body.details ?? [],
      },
      method,
      path,
    );
  }

  function parseBody<T extends z.ZodType>(
    schema: T,
    method: string,
    path: string,
    response: RawResponse,
  ): z.output<T> {
    const parsed = schema.safeParse(response.body);
    if (parsed.success) return parsed.data;
    throw fail(
      {
        status: response.status,
        name: "UNEXPECTED_RESPONSE",
        message: `PayPal ${method} ${path} answered ${response.status} with an unexpected body: ${z.prettifyError(parsed.error)}`,
        debugId: response.debugId,
      },
      method,
      path,
    );
  }

  async function fetchToken(): Promise<string> {
    const response = await send("POST", TOKEN_PATH, {
      authorization: `Basic ${basicCredentials}`,
      form: "grant_type=client_credentials",
    });
    if (response.status < 200 || response.status >= 300) throw errorFrom("POST", TOKEN_PATH, response);
    const token = parseBody(tokenSchema, "POST", TOKEN_PATH, response);
    // Renew a little before PayPal's expiry: 10% of the lifetime, at most five minutes.
    const lifetimeMs = token.expires_in * 1000;
    cachedToken = {
      value: token.access_token,
      refreshAt: Date.now() + lifetimeMs - Math.min(lifetimeMs * 0.1, 300_000),
    };
    return token.access_token;
  }

  function getAccessToken(): Promise<string> {
    if (cachedToken && Date.now() < cachedToken.refreshAt) return Promise.resolve(cachedToken.value);
    pendingToken ??= fetchToken().finally(() => {
      pendingToken = undefined;
    });
    return pendingToken;
  }

  /** An authenticated call; a 401 (token revoked or expired early) renews the token and retries once. */
  async function call(
    method: string,
    path: string,
    options: { json?: unknown; requestId?: string } = {},
  ): Promise<RawResponse> {
    const attempt = async (token: string) =>
      send(method, path, {
        authorization: `Bearer ${token}`,
        json: options.json,
        requestId: options.requestId,
      });

    const token = await getAccessToken();
    let response = await attempt(token);
    if (response.status === 401) {
      opts.logger?.warn({ paypal: { method, path } }, "PayPal rejected the access token; renewing it");
      if (cachedToken?.value === token) cachedToken = undefined;
      response = await attempt(await getAccessToken());
    }
    if (response.status < 200 || response.status >= 300) throw errorFrom(method, path, response);
    return response;
  }

  async function callExpecting<T extends z.ZodType>(
    schema: T,
    method: string,
    path: string,
    options: { json?: unknown; requestId?: string } = {},
  ): Promise<z.output<T>> {
    return parseBody(schema, method, path, await call(method, path, options));
  }

  const subscriptionPath = (id: string) => `/v1/billing/subscriptions/${encodeURIComponent(id)}`;
  const planPath = (id: string) => `/v1/billing/plans/${encodeURIComponent(id)}`;

  return {
    getAccessToken,

    async createProduct(input) {
      return callExpecting(productSchema, "POST", "/v1/catalogs/products", {
        json: {
          name: input.name,
          type: input.type,
          ...(input.description !== undefined && { description: input.description }),
          ...(input.category !== undefined && { category: input.category }),
        },
        requestId: input.requestId ?? randomUUID(),
      });
    },

    async createPlan(input) {
      const plan = await callExpecting(planSchema, "POST", "/v1/billing/plans", {
        json: {
          product_id: input.productId,
          name: input.name,
          ...(input.description !== undefined && { description: input.description }),
          status: input.status ?? "ACTIVE",
          billing_cycles: [
            {
              frequency: { interval_unit: input.interval, interval_count: 1 },
              tenure_type: "REGULAR",
              sequence: 1,
              total_cycles: 0,
              pricing_scheme: {
                fixed_price: {
                  value: centsToPaypalValue(input.amountCents, input.currency),
                  currency_code: input.currency,
                },
              },
            },
          ],
          payment_preferences: {
            auto_bill_outstanding: true,
            setup_fee_failure_action: "CANCEL",
            payment_failure_threshold: 3,
          },
        },
        requestId: input.requestId ?? randomUUID(),
      });
      return { id: plan.id, status: plan.status };
    },

    async activatePlan(id) {
      await call("POST", `${planPath(id)}/activate`);
    },

    async deactivatePlan(id) {
      await call("POST", `${planPath(id)}/deactivate`);
    },

    async createSubscription(input) {
      const path = "/v1/billing/subscriptions";
      const created = await callExpecting(createdSubscriptionSchema, "POST", path, {
        json: {
          plan_id: input.planId,
          custom_id: input.customId,
          application_context: {
            ...(input.brandName !== undefined && { brand_name: input.brandName }),
            ...(input.locale !== undefined && { locale: input.locale }),
            shipping_preference: "NO_SHIPPING",
            user_action: "SUBSCRIBE_NOW",
            return_url: input.returnUrl,
            cancel_url: input.cancelUrl,
          },
        },
        requestId: input.requestId ?? randomUUID(),
      });
      const approve = created.links.find((link) => link.rel === "approve");
      if (!approve) {
        throw fail(
          {
            status: 201,
            name: "UNEXPECTED_RESPONSE",
            message: `PayPal POST ${path} returned no approve link`,
          },
          "POST",
          path,
        );
      }
      return { id: created.id, status: created.status, approveUrl: approve.href };
    },

    async getSubscription(id) {
      return callExpecting(subscriptionSchema, "GET", subscriptionPath(id));
    },

    async cancelSubscription(id, reason) {
      await call("POST", `${subscriptionPath(id)}/cancel`, { json: { reason } });
    },

    async suspendSubscription(id, reason) {
      await call("POST", `${subscriptionPath(id)}/suspend`, { json: { reason } });
    },

    async activateSubscription(id, reason) {
      await call("POST", `${subscriptionPath(id)}/activate`, { json: { reason } });
    },

    async createOrder(input) {
      const path = "/v2/checkout/orders";
      const created = await callExpecting(createdOrderSchema, "POST", path, {
        json: {
          intent: "CAPTURE",
          purchase_units: [
            {
              reference_id: "default",
              custom_id: input.customId,
              description: input.description.slice(0, 127),
              amount: {
                currency_code: input.currency,
                value: centsToPaypalValue(input.amountCents, input.currency),
              },
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                ...(input.brandName !== undefined && { brand_name: input.brandName }),
                ...(input.locale !== undefined && { locale: input.locale }),
                shipping_preference: "NO_SHIPPING",
                user_action: "PAY_NOW",
                return_url: input.returnUrl,
                cancel_url: input.cancelUrl,
              },
            },
          },
        },
        requestId: input.requestId ?? randomUUID(),
      });
      const approve = created.links.find((link) => link.rel === "payer-action" || link.rel === "approve");
      if (!approve) {
        throw fail(
          {
            status: 200,
            name: "UNEXPECTED_RESPONSE",
            message: `PayPal POST ${path} returned no approve link`,
          },
          "POST",
          path,
        );
      }
      return { id: created.id, status: created.status, approveUrl: approve.href };
    },

    async getOrder(id) {
      return callExpecting(orderSchema, "GET", `/v2/checkout/orders/${encodeURIComponent(id)}`);
    },

    async captureOrder(id, requestId) {
      return callExpecting(orderSchema, "POST", `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, {
        json: {},
        requestId: requestId ?? randomUUID(),
      });
    },

    async refundCapture(captureId, input) {
      return callExpecting(
        refundSchema,
        "POST",
        `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`,
        {
          json: {
            ...(input.amountCents !== undefined &&
              input.currency !== undefined && {
                amount: {
                  value: centsToPaypalValue(input.amountCents, input.currency),
                  currency_code: input.currency,
                },
              }),
            ...(input.note !== undefined && { note_to_payer: input.note.slice(0, 255) }),
          },
          requestId: input.requestId ?? randomUUID(),
        },
      );
    },

    async verifyWebhookSignature({ headers, body, webhookId }) {
      const lowered = new Map<string, string>();
      for (const [key, value] of Object.entries(headers)) {
        const single = Array.isArray(value) ? value[0] : value;
        if (single) lowered.set(key.toLowerCase(), single);
      }
      const fields: Record<string, string> = {};
      for (const [field, header] of Object.entries(WEBHOOK_HEADERS)) {
        const value = lowered.get(header);
        if (!value) return false;
        fields[field] = value;
      }
      if (!webhookId || typeof body !== "object" || body === null) return false;
      const result = await callExpecting(
        verificationSchema,
        "POST",
        "/v1/notifications/verify-webhook-signature",
        {
          json: { ...fields, webhook_id: webhookId, webhook_event: body },
        },
      );
      return result.verification_status === "SUCCESS";
    },
  };
}
