import { randomUUID } from "node:crypto";
import { z } from "zod";
import { centsToPaypalValue, paypalValueToCents } from "./amount";
import {
  type BuyerExperience,
  buyerExperience,
  linkSchema,
  moneySchema,
  type PaypalTransport,
} from "./request";

/** One-off payments (Orders v2) and their refunds (Payments v2). */

interface CreateOrderInput extends BuyerExperience {
  amountCents: number;
  currency: string;
  /** Our reference (the purchase id): PayPal echoes it on the order and its capture. */
  customId: string;
  description: string;
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

export interface PaypalOrderCalls {
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
}

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

export function orderCalls(paypal: PaypalTransport): PaypalOrderCalls {
  const { callExpecting } = paypal;
  return {
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
              experience_context: buyerExperience(input, "PAY_NOW"),
            },
          },
        },
        requestId: input.requestId ?? randomUUID(),
      });
      const approveUrl = paypal.approveLink(created.links, ["payer-action", "approve"], 200, path);
      return { id: created.id, status: created.status, approveUrl };
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
  };
}
