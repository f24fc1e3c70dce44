import { SPEAK_CODES, type VatScheme } from "@parlons/contract";
import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { plans } from "./plans";
import { users } from "./users";

export const CUSTOMER_PLAN_STATUSES = [
  "APPROVAL_PENDING",
  "ACTIVE",
  "SUSPENDED",
  "CANCELLED",
  "EXPIRED",
] as const;
export type CustomerPlanStatus = (typeof CUSTOMER_PLAN_STATUSES)[number];

/** A learner's subscription to a plan, mirrored from the payment provider. */
export const customerPlans = pgTable(
  "customer_plans",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id),
    status: text("status", { enum: CUSTOMER_PLAN_STATUSES }).notNull().default("APPROVAL_PENDING"),
    /** "paypal", "demo", or "free" for the default plan. */
    provider: text("provider").notNull(),
    providerSubscriptionId: text("provider_subscription_id"),
    startedAt: timestamp("started_at", { withTimezone: true }),
    lastPaymentAt: timestamp("last_payment_at", { withTimezone: true }),
    nextBillingAt: timestamp("next_billing_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** After a cancellation, premium access lasts until this time (the end of the paid period). */
    accessUntil: timestamp("access_until", { withTimezone: true }),
    /**
     * The learner's ACTIVE subscription when this checkout was started: the one it is meant to
     * replace (a change of plan). Null: started while the learner held no active subscription.
     */
    /** The country the learner declared at checkout (ISO 3166-1 alpha-2): its invoices' VAT. */
    buyerCountry: text("buyer_country"),
    /** The payer's country the provider reported (PayPal's subscriber): wins over the declared one for VAT. */
    paymentCountry: text("payment_country"),
    /** The free days this subscription started with (null: none); its first payment comes after them. */
    trialDays: integer("trial_days"),
    replacesId: uuid("replaces_id").references((): AnyPgColumn => customerPlans.id, { onDelete: "set null" }),
    /**
     * Set when this subscription activated while the learner already held another one it was not
     * started to replace: it was cancelled at the provider and its payment marked for refund.
     */
    duplicateOf: uuid("duplicate_of").references((): AnyPgColumn => customerPlans.id, {
      onDelete: "set null",
    }),
    /**
     * The coupon taken at checkout (its code copied), whether it discounts the first payment only
     * ("once") or every one ("forever"), the plan's price then and the discounted price.
     */
    couponId: uuid("coupon_id").references((): AnyPgColumn => coupons.id, { onDelete: "set null" }),
    couponCode: text("coupon_code"),
    couponDuration: text("coupon_duration", { enum: ["once", "forever"] }),
    listAmount: integer("list_amount"),
    discountedAmount: integer("discounted_amount"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("customer_plans_user_idx").on(t.userId),
    uniqueIndex("customer_plans_provider_sub_key").on(t.provider, t.providerSubscriptionId),
    // one live paid plan per learner: every customer plan is a paid one (the free plan needs none)
    uniqueIndex("customer_plans_one_active_key").on(t.userId).where(sql`${t.status} = 'ACTIVE'`),
  ],
);

/**
 * The learner's one trial, ever: the primary key refuses a second row whatever runs at once. A
 * checkout claims it before the provider's subscription is made; a claim whose checkout closed
 * without ever starting (declined, abandoned) may be taken again by the next checkout
 * (`customer_plan_id` is not a foreign key: the claim is written before its customer plan).
 */
export const subscriptionTrials = pgTable("subscription_trials", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  customerPlanId: uuid("customer_plan_id").notNull(),
  claimedAt: timestamp("claimed_at", { withTimezone: true }).notNull().defaultNow(),
});

export const PAYMENT_STATUSES = ["PAID", "REFUND_DUE"] as const;

export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    /** The subscription it paid, or null for a course bought once (`purchase_id`). */
    customerPlanId: uuid("customer_plan_id").references(() => customerPlans.id, { onDelete: "cascade" }),
    purchaseId: uuid("purchase_id").references((): AnyPgColumn => purchases.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    provider: text("provider").notNull(),
    providerPaymentId: text("provider_payment_id").notNull(),
    paidAt: timestamp("paid_at", { withTimezone: true }).notNull(),
    /**
     * PAID: a payment for the plan the learner holds (it has a receipt). REFUND_DUE: taken by a
     * second subscription that was cancelled (no receipt; to be refunded at the provider).
     */
    status: text("status", { enum: PAYMENT_STATUSES }).notNull().default("PAID"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payments_provider_key").on(t.provider, t.providerPaymentId),
    index("payments_user_idx").on(t.userId),
    check("payments_one_item", sql`(${t.customerPlanId} is null) <> (${t.purchaseId} is null)`),
  ],
);

/**
 * The last receipt number given in each year. A payment's transaction takes the next number with
 * one upsert on this row: the row lock makes concurrent payments take turns, and a rolled-back
 * payment gives its number back, so numbers run without gaps or duplicates.
 */
export const receiptCounters = pgTable("receipt_counters", {
  year: integer("year").primaryKey(),
  last: integer("last").notNull(),
});

/** What the seller printed on a receipt, copied when it is issued (later settings do not rewrite it). */
export interface ReceiptSeller {
  name: string;
  address: string;
  tax_id: string;
  email: string;
  /** Absent on receipts issued before invoices carried VAT. */
  country?: string;
  vat_number?: string;
  vat_scheme?: VatScheme;
}

/**
 * The receipt of one payment, numbered `R-{year}-{seq}`. Names, plan and seller are copied when it
 * is issued: an accounting document stays as it was sent, whatever changes later.
 */
export const receipts = pgTable(
  "receipts",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    year: integer("year").notNull(),
    seq: integer("seq").notNull(),
    number: text("number").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull(),
    buyerName: text("buyer_name").notNull(),
    buyerEmail: text("buyer_email").notNull(),
    lang: text("lang", { enum: SPEAK_CODES }).notNull(),
    /** A receipt for a payment, or the credit note of its refund (`credit_of`: the receipt it cancels). */
    kind: text("kind", { enum: ["receipt", "credit_note"] })
      .notNull()
      .default("receipt"),
    creditOf: uuid("credit_of").references((): AnyPgColumn => receipts.id, { onDelete: "set null" }),
    /** What was paid: a subscription to a plan, or a course bought once. */
    item: text("item", { enum: ["subscription", "course"] })
      .notNull()
      .default("subscription"),
    planNameFr: text("plan_name_fr").notNull(),
    planNameEn: text("plan_name_en").notNull(),
    amount: integer("amount").notNull(),
    /** Before a coupon (null: no coupon; `amount` is then the price), and the coupon's code. */
    listAmount: integer("list_amount"),
    couponCode: text("coupon_code"),
    currency: text("currency").notNull(),
    /**
     * VAT (prices are tax included): the buyer's country it was charged for, the rate in basis
     * points, the VAT inside `amount` in cents, and why there is none ("exempt", "outside_eu").
     */
    buyerCountry: text("buyer_country"),
    vatRate: integer("vat_rate").notNull().default(0),
    vatAmount: integer("vat_amount").notNull().default(0),
    vatNote: text("vat_note", { enum: ["exempt", "outside_eu"] }),
    /** PAID for a receipt, REFUNDED for a credit note. */
    status: text("status", { enum: ["PAID", "REFUNDED"] })
      .notNull()
      .default("PAID"),
    provider: text("provider").notNull(),
    seller: jsonb("seller").$type<ReceiptSeller>().notNull(),
  },
  (t) => [
    // one receipt and at most one credit note per payment
    uniqueIndex("receipts_payment_kind_key").on(t.paymentId, t.kind),
    uniqueIndex("receipts_year_seq_key").on(t.year, t.seq),
    uniqueIndex("receipts_number_key").on(t.number),
    index("receipts_user_idx").on(t.userId, t.issuedAt),
    check("receipts_status", sql`${t.status} in ('PAID', 'REFUNDED')`),
  ],
);

export const PURCHASE_STATUSES = ["PENDING", "PAID", "CANCELLED", "REFUNDED"] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/**
 * A course bought once (a plan of interval "once"): one provider order, paid by one capture.
 * PAID opens `course_ids` for life; REFUNDED closes them again. The courses are copied from the
 * plan when the purchase starts: what was bought does not change when staff edit the offer.
 */
export const purchases = pgTable(
  "purchases",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id),
    courseIds: uuid("course_ids").array().notNull(),
    status: text("status", { enum: PURCHASE_STATUSES }).notNull().default("PENDING"),
    provider: text("provider").notNull(),
    providerOrderId: text("provider_order_id").notNull(),
    /** The provider's capture, once paid: what a refund refunds. */
    providerCaptureId: text("provider_capture_id"),
    /** The plan's price when the purchase started, and what the learner pays after a coupon. */
    listAmount: integer("list_amount").notNull(),
    amount: integer("amount").notNull(),
    /** The coupon entered at checkout (its code copied: the receipt names it whatever happens to it). */
    couponId: uuid("coupon_id").references((): AnyPgColumn => coupons.id, { onDelete: "set null" }),
    couponCode: text("coupon_code"),
    currency: text("currency").notNull(),
    /** The country the buyer declared at checkout, and the payer's country the provider reported at capture. */
    buyerCountry: text("buyer_country"),
    paymentCountry: text("payment_country"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("purchases_user_idx").on(t.userId, t.status),
    uniqueIndex("purchases_provider_order_key").on(t.provider, t.providerOrderId),
    check("purchases_status", sql`${t.status} in ('PENDING', 'PAID', 'CANCELLED', 'REFUNDED')`),
  ],
);

/**
 * A discount code: a percentage or an amount off the offers it names (none: every paid offer), until
 * `ends_at`, at most `max_uses` times. `uses` only moves by a conditional update (`uses < max_uses`),
 * so concurrent checkouts can never take more uses than there are.
 */
export const coupons = pgTable(
  "coupons",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    /** Upper case, as learners' entries are compared. */
    code: text("code").notNull(),
    percentOff: integer("percent_off"),
    amountOff: integer("amount_off"),
    currency: text("currency"),
    planIds: uuid("plan_ids").array().notNull().default(sql`'{}'::uuid[]`),
    /** On a subscription: the first payment only, or every payment. */
    duration: text("duration", { enum: ["once", "forever"] })
      .notNull()
      .default("once"),
    endsAt: timestamp("ends_at", { withTimezone: true }),
    maxUses: integer("max_uses"),
    uses: integer("uses").notNull().default(0),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("coupons_code_key").on(t.code),
    check("coupons_one_discount", sql`(${t.percentOff} is null) <> (${t.amountOff} is null)`),
    check("coupons_uses_within_max", sql`${t.maxUses} is null or ${t.uses} <= ${t.maxUses}`),
  ],
);

/**
 * Each use of a coupon, by the purchase or the subscription that took it: one per purchase
 * (whatever replays the capture) and one per subscription (whatever it pays later).
 */
export const couponRedemptions = pgTable(
  "coupon_redemptions",
  {
    id: uuid("id").primaryKey().default(sql`gen_random_uuid()`),
    couponId: uuid("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purchaseId: uuid("purchase_id").references(() => purchases.id, { onDelete: "cascade" }),
    customerPlanId: uuid("customer_plan_id").references(() => customerPlans.id, { onDelete: "cascade" }),
    amountOff: integer("amount_off").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("coupon_redemptions_purchase_key").on(t.purchaseId),
    uniqueIndex("coupon_redemptions_customer_plan_key").on(t.customerPlanId),
    index("coupon_redemptions_coupon_idx").on(t.couponId),
    check("coupon_redemptions_one_item", sql`(${t.purchaseId} is null) <> (${t.customerPlanId} is null)`),
  ],
);

/** The demo provider's orders (the "provider's truth" of a course bought through the demo checkout). */
export const demoOrders = pgTable("demo_orders", {
  id: text("id").primaryKey(),
  purchaseId: uuid("purchase_id")
    .notNull()
    .references(() => purchases.id, { onDelete: "cascade" }),
  status: text("status", { enum: ["CREATED", "APPROVED", "VOIDED", "COMPLETED"] })
    .notNull()
    .default("CREATED"),
  amount: integer("amount").notNull(),
  currency: text("currency").notNull(),
  captureId: text("capture_id"),
  refunded: boolean("refunded").notNull().default(false),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * PayPal's billing plan for a first payment at another price: a one-cycle TRIAL at the plan's price
 * then its REGULAR cycle, so a subscription's plan override can price that first cycle (PayPal
 * overrides only the cycles a plan has); with free days (`trial_days` > 0), a free TRIAL cycle of
 * that many days comes first, and the priced one is the first paid cycle after them. Made on first
 * need for the plan's current price, one per plan and number of free days.
 */
export const paypalIntroPlans = pgTable(
  "paypal_intro_plans",
  {
    planId: uuid("plan_id")
      .notNull()
      .references(() => plans.id, { onDelete: "cascade" }),
    trialDays: integer("trial_days").notNull().default(0),
    paypalPlanId: text("paypal_plan_id").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    interval: text("interval", { enum: ["month", "year"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.planId, t.trialDays] })],
);

/** Provider webhook deliveries, stored by event id so that a repeated delivery changes nothing. */
export const webhookEvents = pgTable("webhook_events", {
  id: text("id").primaryKey(),
  provider: text("provider").notNull(),
  eventType: text("event_type").notNull(),
  payload: jsonb("payload").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp("processed_at", { withTimezone: true }),
});

/**
 * The demo provider's own record of its subscriptions: the "provider's truth" of the embedded
 * checkout where no money moves, kept in the database so every API process sees the same.
 */
export const demoSubscriptions = pgTable("demo_subscriptions", {
  id: text("id").primaryKey(),
  customerPlanId: uuid("customer_plan_id")
    .notNull()
    .references(() => customerPlans.id, { onDelete: "cascade" }),
  status: text("status", { enum: ["APPROVAL_PENDING", "ACTIVE", "SUSPENDED", "CANCELLED", "EXPIRED"] })
    .notNull()
    .default("APPROVAL_PENDING"),
  amount: integer("amount").notNull(),
  currency: text("currency").notNull(),
  interval: text("interval", { enum: ["month", "year"] }).notNull(),
  startTime: timestamp("start_time", { withTimezone: true }),
  nextBillingTime: timestamp("next_billing_time", { withTimezone: true }),
  lastPaymentTime: timestamp("last_payment_time", { withTimezone: true }),
  statusUpdateTime: timestamp("status_update_time", { withTimezone: true }).notNull().defaultNow(),
});

/** One row per periodic job: a process runs a cycle only if it moves `last_run_at` forward (N processes, one run). */
export const jobLeases = pgTable("job_leases", {
  name: text("name").primaryKey(),
  lastRunAt: timestamp("last_run_at", { withTimezone: true }).notNull(),
  holder: text("holder").notNull(),
});
