import { z } from "zod";
import { envelope } from "./common";

/** The staff's view of sales over a period of at most this many days (UTC days, both ends included). */
export const SALES_MAX_DAYS = 1096;
/** At most this many orders and refunds in the JSON report (newest first); the CSV has them all. */
export const SALES_LIST_LIMIT = 500;

const day = z.iso.date();
export const salesReportQuery = z
  .object({ from: day, to: day })
  .refine((q) => q.from <= q.to, { message: "The start must not be after the end", path: ["from"] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < SALES_MAX_DAYS, {
    message: `At most ${SALES_MAX_DAYS} days`,
    path: ["to"],
  });
export type SalesReportQuery = z.infer<typeof salesReportQuery>;

/** The tables of the report, each one CSV file. */
export const salesTable = z.enum(["orders", "refunds", "plans", "courses", "coupons", "trials"]);
export type SalesTable = z.infer<typeof salesTable>;
export const salesCsvQuery = salesReportQuery.and(z.object({ table: salesTable }));

/** Amounts in cents of `currency`: paid in the period, refunded in the period, and the difference. */
const revenue = {
  currency: z.string(),
  gross: z.number().int(),
  refunded: z.number().int(),
  net: z.number().int(),
};

/** What a payment or a refund paid for, whom, and how much (names as the invoice printed them). */
const saleLine = {
  item: z.enum(["subscription", "course"]),
  plan_id: z.string().nullable(),
  plan_name: z.string(),
  plan_name_fr: z.string(),
  buyer_email: z.string(),
  amount: z.number().int(),
  currency: z.string(),
};

export const salesOrder = z.object({
  payment_id: z.string(),
  paid_at: z.string(),
  ...saleLine,
  /** The price before the coupon (null: none). */
  list_amount: z.number().int().nullable(),
  coupon_code: z.string().nullable(),
  receipt_number: z.string().nullable(),
  provider: z.string(),
  /** Refunded (whenever): the credit note's number. */
  credit_note_number: z.string().nullable(),
});
export type SalesOrder = z.infer<typeof salesOrder>;

export const salesRefund = z.object({
  credit_note_number: z.string(),
  issued_at: z.string(),
  /** The receipt it cancels. */
  receipt_number: z.string().nullable(),
  ...saleLine,
});
export type SalesRefund = z.infer<typeof salesRefund>;

/**
 * A subscription that started with free days in the period: "running" while they last (or its
 * first payment is still due), "converted" once a payment was taken, "ended" when it closed unpaid.
 */
export const salesTrial = z.object({
  customer_plan_id: z.string(),
  started_at: z.string(),
  ends_at: z.string(),
  trial_days: z.number().int(),
  plan_id: z.string(),
  plan_name: z.string(),
  plan_name_fr: z.string(),
  buyer_email: z.string(),
  outcome: z.enum(["running", "converted", "ended"]),
  coupon_code: z.string().nullable(),
});
export type SalesTrial = z.infer<typeof salesTrial>;

export const salesReport = z.object({
  from: z.string(),
  to: z.string(),
  /** By currency: payments and refunds counted, and what they add up to. */
  totals: z.array(z.object({ payments: z.number().int(), refunds: z.number().int(), ...revenue })),
  /** By offer (plan): subscriptions and courses bought once. */
  by_plan: z.array(
    z.object({
      plan_id: z.string().nullable(),
      plan_name: z.string(),
      plan_name_fr: z.string(),
      item: z.enum(["subscription", "course"]),
      payments: z.number().int(),
      refunds: z.number().int(),
      ...revenue,
    }),
  ),
  /**
   * By course: the courses bought once (an offer of several courses shares its price evenly
   * between them, the odd cents to the first); subscriptions are counted by plan only.
   */
  by_course: z.array(
    z.object({
      course_id: z.string(),
      title_fr: z.string(),
      title_en: z.string(),
      sales: z.number().int(),
      refunds: z.number().int(),
      ...revenue,
    }),
  ),
  /** Coupons used in the period (a use is taken by a purchase or a subscription). */
  coupon_uses: z.array(
    z.object({ code: z.string(), uses: z.number().int(), discount: z.number().int(), currency: z.string() }),
  ),
  /** Newest first, at most SALES_LIST_LIMIT; `orders_total` and `refunds_total` count them all. */
  orders: z.array(salesOrder),
  orders_total: z.number().int(),
  refunds: z.array(salesRefund),
  refunds_total: z.number().int(),
  /** Trials started in the period, newest first (at most SALES_LIST_LIMIT), and how they came out. */
  trials: z.array(salesTrial),
  trial_counts: z.object({
    started: z.number().int(),
    running: z.number().int(),
    converted: z.number().int(),
    ended: z.number().int(),
  }),
});
export type SalesReport = z.infer<typeof salesReport>;
export const salesReportResponse = envelope(z.object({ report: salesReport }));
export type SalesReportResponse = z.infer<typeof salesReportResponse>;
