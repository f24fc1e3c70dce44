import { z } from "zod";

/**
 * What every PayPal call shares: the OAuth2 client-credentials token (kept until shortly before
 * it expires, renewed once on a 401), the request with its timeout, and one error type whose
 * message never carries a credential. The calls themselves are in subscriptions.ts and orders.ts.
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

export const linkSchema = z.object({ href: z.string(), rel: z.string(), method: z.string().optional() });

export const dateSchema = z
  .string()
  .transform((value) => new Date(value))
  .refine((date) => !Number.isNaN(date.getTime()), "invalid date-time");

export const moneySchema = z.object({ currency_code: z.string(), value: z.string() });

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

interface CallOptions {
  json?: unknown;
  requestId?: string;
}

/** Where the buyer approves a payment, as PayPal's checkout pages want it. */
export interface BuyerExperience {
  returnUrl: string;
  cancelUrl: string;
  /** BCP 47 with region, e.g. "fr-FR". */
  locale?: string;
  brandName?: string;
}

/** The checkout page settings of a subscription (`application_context`) or an order (`experience_context`). */
export const buyerExperience = (input: BuyerExperience, userAction: "SUBSCRIBE_NOW" | "PAY_NOW") => ({
  ...(input.brandName !== undefined && { brand_name: input.brandName }),
  ...(input.locale !== undefined && { locale: input.locale }),
  shipping_preference: "NO_SHIPPING",
  user_action: userAction,
  return_url: input.returnUrl,
  cancel_url: input.cancelUrl,
});

/** The authenticated requests the calls are made of. */
export interface PaypalTransport {
  getAccessToken(): Promise<string>;
  /** A call answered 2xx, or a PaypalError. */
  call(method: string, path: string, options?: CallOptions): Promise<RawResponse>;
  /** A call answered 2xx with a body of `schema`, or a PaypalError. */
  callExpecting<T extends z.ZodType>(
    schema: T,
    method: string,
    path: string,
    options?: CallOptions,
  ): Promise<z.output<T>>;
  /** The link of the first relation in `rels` that a created resource answered with (status `status`). */
  approveLink(links: { rel: string; href: string }[], rels: string[], status: number, path: string): string;
}

export function createPaypalTransport(opts: PaypalClientOptions): PaypalTransport {
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
  async function call(method: string, path: string, options: CallOptions = {}): Promise<RawResponse> {
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
    options: CallOptions = {},
  ): Promise<z.output<T>> {
    return parseBody(schema, method, path, await call(method, path, options));
  }

  function approveLink(
    links: { rel: string; href: string }[],
    rels: string[],
    status: number,
    path: string,
  ): string {
    const approve = links.find((link) => rels.includes(link.rel));
    if (approve) return approve.href;
    throw fail(
      { status, name: "UNEXPECTED_RESPONSE", message: `PayPal POST ${path} returned no approve link` },
      "POST",
      path,
    );
  }

  return { getAccessToken, call, callExpecting, approveLink };
}
