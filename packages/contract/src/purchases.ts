import { z } from "zod";
import { envelope, pagination } from "./common";
import { couponCode } from "./coupons";
import { localeSchema } from "./locale-schema";
import { checkoutProvider } from "./plans";
import { countryCode } from "./vat";

/** PENDING: waiting for the buyer; PAID: the courses are open for life; CANCELLED: never paid; REFUNDED: paid back, closed. */
export const purchaseStatus = z.enum(["PENDING", "PAID", "CANCELLED", "REFUNDED"]);
export type PurchaseStatus = z.infer<typeof purchaseStatus>;

/** A course bought once: an offer of interval "once" paid by one provider order. */
export const purchase = z.object({
  id: z.string(),
  user_id: z.string(),
  /** The buyer's name and email (null: the account was erased). */
  buyer: z.object({ name: z.string(), email: z.string() }).nullable(),
  plan_id: z.string(),
  plan_name: z.string(),
  plan_name_fr: z.string(),
  /** The courses it opens (copied from the offer when the purchase started). */
  course_ids: z.array(z.string()),
  status: purchaseStatus,
  provider: z.string(),
  /** The offer's price when it started, and what the learner pays. */
  list_amount: z.number().int(),
  amount: z.number().int(),
  /** The coupon entered at checkout, if any. */
  coupon_code: z.string().nullable(),
  currency: z.string(),
  paid_at: z.string().nullable(),
  refunded_at: z.string().nullable(),
  created_at: z.string(),
  /** The receipt of its payment and, once refunded, the credit note. */
  receipt: z.object({ id: z.string(), number: z.string() }).nullable(),
  credit_note: z.object({ id: z.string(), number: z.string() }).nullable(),
});
export type Purchase = z.infer<typeof purchase>;

/** `POST /v1/purchases`: buy an offer of interval "once". */
export const startPurchaseBody = z
  .object({
    plan_id: z.uuid(),
    /** Default: the server's provider ("paypal" when configured, else "demo"). */
    provider: checkoutProvider.optional(),
    /** The web's language: return pages are under /en for "en". Default "fr". */
    locale: localeSchema.optional(),
    /** A discount code entered at checkout. */
    coupon: couponCode.optional(),
    /** The country the buyer lives in (ISO 3166-1 alpha-2): their invoice's VAT. Default: the seller's. */
    country: countryCode.optional(),
  })
  .strict()
  .meta({ examples: [{ plan_id: "0b9f6c1e-4a55-4c2e-9a43-2f1d3c8e7a10", provider: "demo", locale: "fr" }] });
export type StartPurchaseBody = z.infer<typeof startPurchaseBody>;

export const startPurchaseResponse = envelope(
  z.object({
    purchase,
    /** Where to send the learner: PayPal's approval page, or our demo checkout (a path on our site). */
    approveUrl: z.string(),
  }),
);
export const purchaseResponse = envelope(z.object({ purchase }));

/** `GET /v1/purchases`: the caller's purchases (staff: anyone's, `user_id`); `GET /v1/purchases/all`: everyone's (staff). */
export const purchasesQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  user_id: z.uuid().optional(),
  status: purchaseStatus.optional(),
});
export const purchasesResponse = envelope(z.object({ purchases: z.array(purchase), pagination }));
