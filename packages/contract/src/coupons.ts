import { z } from "zod";
import { envelope, pagination } from "./common";

/** A discount code as staff see it. */
export const coupon = z.object({
  id: z.string(),
  code: z.string(),
  /** One of the two: a percentage off, or an amount off (in cents of `currency`). */
  percent_off: z.number().int().nullable(),
  amount_off: z.number().int().nullable(),
  currency: z.string().nullable(),
  /** The offers it applies to (plan ids); empty: every paid offer. */
  plan_ids: z.array(z.string()),
  /** On a subscription: the first payment only ("once") or every payment ("forever"). */
  duration: z.enum(["once", "forever"]),
  ends_at: z.string().nullable(),
  /** At most this many uses (null: no limit); `uses` so far. */
  max_uses: z.number().int().nullable(),
  uses: z.number().int(),
  active: z.boolean(),
  created_at: z.string(),
});
export type Coupon = z.infer<typeof coupon>;

/** Codes are letters, digits, dashes and underscores; compared in upper case. */
export const couponCode = z
  .string()
  .trim()
  .min(3)
  .max(40)
  .regex(/^[A-Za-z0-9_-]+$/, "Letters, digits, - and _ only")
  .transform((s) => s.toUpperCase());

const couponFields = {
  code: couponCode,
  percent_off: z.number().int().min(1).max(100).nullable().default(null),
  amount_off: z.number().int().min(1).max(100_000_000).nullable().default(null),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "An ISO 4217 code in capitals, e.g. EUR")
    .nullable()
    .default(null),
  plan_ids: z.array(z.uuid()).max(100).default([]),
  duration: z.enum(["once", "forever"]).default("once"),
  ends_at: z.iso.datetime({ offset: true }).nullable().default(null),
  max_uses: z.number().int().min(1).max(1_000_000).nullable().default(null),
  active: z.boolean().default(true),
};
const oneDiscount = (c: { percent_off?: number | null; amount_off?: number | null }) =>
  (c.percent_off == null) !== (c.amount_off == null);
const amountHasCurrency = (c: { amount_off?: number | null; currency?: string | null }) =>
  c.amount_off == null || c.currency != null;

/** `POST /v1/coupons` and `PUT /v1/coupons/{id}` (plans.manage, the whole coupon; the code may change while unused). */
export const createCouponBody = z
  .object(couponFields)
  .strict()
  .refine(oneDiscount, { message: "A percentage or an amount off, not both", path: ["percent_off"] })
  .refine(amountHasCurrency, { message: "An amount off names its currency", path: ["currency"] })
  .meta({
    examples: [{ code: "SPRING-24", percent_off: 20, max_uses: 100, ends_at: "2099-06-30T23:59:59Z" }],
  });
export type CreateCouponBody = z.infer<typeof createCouponBody>;

export const couponResponse = envelope(z.object({ coupon }));
export const couponsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const couponsResponse = envelope(z.object({ coupons: z.array(coupon), pagination }));
/** `DELETE /v1/coupons/{id}`: deleted, or only deactivated when it was used (receipts name it). */
export const couponDeleteResponse = envelope(z.object({ deleted: z.boolean(), coupon }));

/** `GET /v1/coupons/quote?code=&plan_id=`: what the learner would pay with this code. */
export const couponQuoteQuery = z.object({ code: couponCode, plan_id: z.uuid() });
export const couponQuoteResponse = envelope(
  z.object({
    code: z.string(),
    list_amount: z.number().int(),
    discount: z.number().int(),
    amount: z.number().int(),
    currency: z.string(),
    /** On a subscription: the first payment only ("once") or every payment ("forever"). */
    duration: z.enum(["once", "forever"]),
  }),
);
export type CouponQuote = z.infer<typeof couponQuoteResponse>["data"];
