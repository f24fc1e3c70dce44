import { randomBytes } from "node:crypto";

/**
 * The Orders v2 and Payments v2 part of the fake PayPal (`paypal-server.ts`): create an order
 * (intent CAPTURE), the buyer approves it on the checkout page, capture it, read it, refund its
 * capture, with the shapes and errors PayPal documents:
 * - `POST /v2/checkout/orders` → 200 `CREATED` with an `approve` link, or `PAYER_ACTION_REQUIRED`
 *   with a `payer-action` link when `payment_source.paypal.experience_context` is sent;
 * - `GET /v2/checkout/orders/{id}`;
 * - `POST /v2/checkout/orders/{id}/capture` → 201 `COMPLETED` with
 *   `purchase_units[].payments.captures[]`; 422 `ORDER_NOT_APPROVED` before the approval,
 *   `ORDER_ALREADY_CAPTURED` after a capture;
 * - `POST /v2/payments/captures/{id}/refund` → 201 `COMPLETED` (the whole capture, or `amount`);
 *   422 `CAPTURE_FULLY_REFUNDED` once nothing is left, `REFUND_AMOUNT_EXCEEDED` past the rest;
 * - `GET /v2/payments/captures/{id}`.
 */

type Json = Record<string, unknown>;
type Result = { status: number; body: Json | undefined };
type Route = [string, RegExp, (params: string[], body: Json) => Result];

interface Money {
  currency_code: string;
  value: string;
}

export interface FakeCapture {
  id: string;
  orderId: string;
  status: "COMPLETED" | "PARTIALLY_REFUNDED" | "REFUNDED";
  amount: Money;
  refunded: number;
  create_time: string;
  update_time: string;
  custom_id?: string;
}

export interface FakeOrder {
  id: string;
  intent: "CAPTURE";
  status: "CREATED" | "PAYER_ACTION_REQUIRED" | "APPROVED" | "COMPLETED";
  purchase_units: Json[];
  amount: Money;
  return_url?: string;
  cancel_url?: string;
  payerAction: boolean;
  create_time: string;
  update_time: string;
  payer?: Json;
  captureId?: string;
}

export interface FakeRefund {
  id: string;
  captureId: string;
  amount: Money;
  note_to_payer?: string;
  create_time: string;
}

/** A PayPal error detail (shared with paypal-server.ts). */
export interface Detail {
  field?: string;
  value?: string;
  location?: string;
  issue: string;
  description: string;
}

interface Helpers {
  url: () => string;
  invalidRequest: (details: Detail[]) => Error;
  notFound: () => Error;
  unprocessable: (issue: string, description: string) => Error;
}

const ID_ALPHABET = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
const AMOUNT = /^((-?[0-9]+)|(-?([0-9]+)?[.][0-9]+))$/;

function randomId(length: number): string {
  let out = "";
  for (const byte of randomBytes(length)) out += ID_ALPHABET[byte % ID_ALPHABET.length];
  return out;
}

const isoSeconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");
const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const cents = (value: string) => Math.round(Number(value) * 100);
const decimal = (n: number) => (n / 100).toFixed(2);

export const missing = (field: string): Detail => ({
  field,
  location: "body",
  issue: "MISSING_REQUIRED_PARAMETER",
  description: "A required field / parameter is missing.",
});
export const invalid = (field: string, value: unknown): Detail => ({
  field,
  ...(value !== undefined && { value: String(value) }),
  location: "body",
  issue: "INVALID_PARAMETER_VALUE",
  description: "The value of a field is invalid.",
});

function parseMoney(raw: unknown, at: string, details: Detail[]): Money | undefined {
  if (!isRecord(raw)) {
    details.push(missing(at));
    return undefined;
  }
  if (typeof raw.currency_code !== "string" || !/^[A-Z]{3}$/.test(raw.currency_code))
    details.push(invalid(`${at}/currency_code`, raw.currency_code));
  if (typeof raw.value !== "string" || !AMOUNT.test(raw.value))
    details.push(invalid(`${at}/value`, raw.value));
  return details.length ? undefined : { currency_code: String(raw.currency_code), value: String(raw.value) };
}

export function fakeOrders(h: Helpers) {
  const orders = new Map<string, FakeOrder>();
  const captures = new Map<string, FakeCapture>();
  const refunds = new Map<string, FakeRefund>();

  function requireOrder(id: string): FakeOrder {
    const order = orders.get(id);
    if (!order) throw h.notFound();
    return order;
  }

  function orderLinks(order: FakeOrder): Json[] {
    const self = `${h.url()}/v2/checkout/orders/${order.id}`;
    const links: Json[] = [{ href: self, rel: "self", method: "GET" }];
    if (order.status === "CREATED" || order.status === "PAYER_ACTION_REQUIRED") {
      links.push({
        href: `${h.url()}/checkoutnow?token=${order.id}`,
        rel: order.payerAction ? "payer-action" : "approve",
        method: "GET",
      });
    }
    if (order.status !== "COMPLETED") {
      links.push({ href: self, rel: "update", method: "PATCH" });
      links.push({ href: `${self}/capture`, rel: "capture", method: "POST" });
    }
    return links;
  }

  function renderCapture(c: FakeCapture): Json {
    return {
      id: c.id,
      status: c.status,
      amount: c.amount,
      final_capture: true,
      seller_protection: { status: "ELIGIBLE", dispute_categories: ["ITEM_NOT_RECEIVED"] },
      ...(c.custom_id !== undefined && { custom_id: c.custom_id }),
      create_time: c.create_time,
      update_time: c.update_time,
      links: [
        { href: `${h.url()}/v2/payments/captures/${c.id}`, rel: "self", method: "GET" },
        { href: `${h.url()}/v2/payments/captures/${c.id}/refund`, rel: "refund", method: "POST" },
        { href: `${h.url()}/v2/checkout/orders/${c.orderId}`, rel: "up", method: "GET" },
      ],
    };
  }

  function renderOrder(order: FakeOrder): Json {
    const capture = order.captureId ? captures.get(order.captureId) : undefined;
    return {
      id: order.id,
      intent: order.intent,
      status: order.status,
      purchase_units: order.purchase_units.map((unit) => ({
        ...unit,
        ...(capture && { payments: { captures: [renderCapture(capture)] } }),
      })),
      ...(order.payer && { payer: order.payer }),
      create_time: order.create_time,
      update_time: order.update_time,
      links: orderLinks(order),
    };
  }

  function createOrder(body: Json): Result {
    const details: Detail[] = [];
    if (body.intent === undefined) details.push(missing("/intent"));
    else if (body.intent !== "CAPTURE" && body.intent !== "AUTHORIZE")
      details.push(invalid("/intent", body.intent));
    const units = Array.isArray(body.purchase_units) ? body.purchase_units : undefined;
    if (!units || units.length === 0) details.push(missing("/purchase_units"));
    const amount =
      units?.[0] && isRecord(units[0])
        ? parseMoney(units[0].amount, "/purchase_units/@reference_id=='default'/amount", details)
        : undefined;
    if (units && units.length > 1) details.push(invalid("/purchase_units", "one purchase unit in this fake"));
    if (details.length || !amount || !units) throw h.invalidRequest(details);
    if (body.intent === "AUTHORIZE") throw h.unprocessable("UNSUPPORTED_INTENT", "This fake captures only.");
    const source =
      isRecord(body.payment_source) && isRecord(body.payment_source.paypal)
        ? body.payment_source.paypal
        : undefined;
    const context = source && isRecord(source.experience_context) ? source.experience_context : undefined;
    const now = isoSeconds(new Date());
    const unit = units[0] as Json;
    const order: FakeOrder = {
      id: randomId(17),
      intent: "CAPTURE",
      status: context ? "PAYER_ACTION_REQUIRED" : "CREATED",
      purchase_units: [{ reference_id: unit.reference_id ?? "default", ...unit, amount }],
      amount,
      ...(typeof context?.return_url === "string" && { return_url: context.return_url }),
      ...(typeof context?.cancel_url === "string" && { cancel_url: context.cancel_url }),
      payerAction: Boolean(context),
      create_time: now,
      update_time: now,
    };
    orders.set(order.id, order);
    return { status: 200, body: { id: order.id, status: order.status, links: orderLinks(order) } };
  }

  function captureOrder(id: string): Result {
    const order = requireOrder(id);
    if (order.status === "COMPLETED")
      throw h.unprocessable(
        "ORDER_ALREADY_CAPTURED",
        "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    if (order.status !== "APPROVED")
      throw h.unprocessable(
        "ORDER_NOT_APPROVED",
        "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
      );
    const now = isoSeconds(new Date());
    const unit = order.purchase_units[0] ?? {};
    const capture: FakeCapture = {
      id: randomId(17),
      orderId: order.id,
      status: "COMPLETED",
      amount: order.amount,
      refunded: 0,
      create_time: now,
      update_time: now,
      ...(typeof unit.custom_id === "string" && { custom_id: unit.custom_id }),
    };
    captures.set(capture.id, capture);
    order.captureId = capture.id;
    order.status = "COMPLETED";
    order.update_time = now;
    return { status: 201, body: renderOrder(order) };
  }

  function requireCapture(id: string): FakeCapture {
    const capture = captures.get(id);
    if (!capture) throw h.notFound();
    return capture;
  }

  function refundCapture(id: string, body: Json): Result {
    const capture = requireCapture(id);
    const details: Detail[] = [];
    const asked = body.amount === undefined ? undefined : parseMoney(body.amount, "/amount", details);
    if (details.length) throw h.invalidRequest(details);
    const total = cents(capture.amount.value);
    const rest = total - capture.refunded;
    if (rest <= 0)
      throw h.unprocessable("CAPTURE_FULLY_REFUNDED", "The capture has already been fully refunded");
    if (asked && asked.currency_code !== capture.amount.currency_code)
      throw h.unprocessable(
        "REFUND_CURRENCY_MISMATCH",
        "Refund must be in the same currency as the capture.",
      );
    const amount = asked ? cents(asked.value) : rest;
    if (amount > rest)
      throw h.unprocessable(
        "REFUND_AMOUNT_EXCEEDED",
        "The refund amount must be less than or equal to the capture amount that has not yet been refunded.",
      );
    capture.refunded += amount;
    capture.status = capture.refunded >= total ? "REFUNDED" : "PARTIALLY_REFUNDED";
    capture.update_time = isoSeconds(new Date());
    const refund: FakeRefund = {
      id: randomId(17),
      captureId: capture.id,
      amount: { currency_code: capture.amount.currency_code, value: decimal(amount) },
      ...(typeof body.note_to_payer === "string" && { note_to_payer: body.note_to_payer }),
      create_time: capture.update_time,
    };
    refunds.set(refund.id, refund);
    return {
      status: 201,
      body: {
        id: refund.id,
        status: "COMPLETED",
        links: [
          { href: `${h.url()}/v2/payments/refunds/${refund.id}`, rel: "self", method: "GET" },
          { href: `${h.url()}/v2/payments/captures/${capture.id}`, rel: "up", method: "GET" },
        ],
      },
    };
  }

  const routes: Route[] = [
    ["POST", /^\/v2\/checkout\/orders$/, (_, body) => createOrder(body)],
    [
      "GET",
      /^\/v2\/checkout\/orders\/([^/]+)$/,
      ([id]) => ({ status: 200, body: renderOrder(requireOrder(id ?? "")) }),
    ],
    ["POST", /^\/v2\/checkout\/orders\/([^/]+)\/capture$/, ([id]) => captureOrder(id ?? "")],
    [
      "GET",
      /^\/v2\/payments\/captures\/([^/]+)$/,
      ([id]) => ({ status: 200, body: renderCapture(requireCapture(id ?? "")) }),
    ],
    ["POST", /^\/v2\/payments\/captures\/([^/]+)\/refund$/, ([id], body) => refundCapture(id ?? "", body)],
  ];

  /** The buyer approves the order on PayPal's page: APPROVED, with the payer. */
  function approveOrder(id: string, payer: { email?: string; country?: string } = {}): FakeOrder {
    const order = orders.get(id);
    if (!order) throw new Error(`fake PayPal: unknown order ${id}`);
    if (order.status !== "CREATED" && order.status !== "PAYER_ACTION_REQUIRED")
      throw new Error(`fake PayPal: order ${id} is ${order.status}`);
    order.status = "APPROVED";
    order.update_time = isoSeconds(new Date());
    order.payer = {
      name: { given_name: "John", surname: "Doe" },
      email_address: payer.email ?? "buyer@example.com",
      payer_id: randomId(13),
      address: { country_code: payer.country ?? "FR" },
    };
    return order;
  }

  /** Where the checkout page sends the buyer back: PayPal adds `token` (the order id) and `PayerID`. */
  function returnUrlOf(id: string, approved: boolean): string | undefined {
    const order = orders.get(id);
    const base = approved ? order?.return_url : order?.cancel_url;
    if (!order || !base) return undefined;
    const location = new URL(base);
    location.searchParams.set("token", order.id);
    if (approved && isRecord(order.payer)) location.searchParams.set("PayerID", String(order.payer.payer_id));
    return location.toString();
  }

  return { routes, orders, captures, refunds, approveOrder, returnUrlOf };
}
