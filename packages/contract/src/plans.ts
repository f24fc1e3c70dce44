import { z } from "zod";
import { envelope, pagination } from "./common";
import { couponCode } from "./coupons";
import { localeSchema } from "./locale-schema";
import { SPEAK_CODES } from "./locales";
import { perLocale, perLocaleOptional, perLocaleText } from "./localized";
import { countryCode } from "./vat";

/**
 * Billing interval of a plan; "once" is a one-off: the free plan, or a paid plan of chosen courses,
 * bought once for lifetime access (providers bill the other paid plans by month or year).
 */
export const planInterval = z.enum(["month", "year", "once"]);
export type PlanInterval = z.infer<typeof planInterval>;

/** What a plan opens: every course, or the courses it names. */
export const planScope = z.enum(["all", "courses"]);
export type PlanScope = z.infer<typeof planScope>;

/** At most this many courses in one plan. */
export const PLAN_COURSES_MAX = 100;
const planCourseIds = z.array(z.uuid()).max(PLAN_COURSES_MAX);

/** A plan as it leaves the server (spec §3 names: id, name, name_fr, amount). Amounts are integer cents. */
export const plan = z.object({
  id: z.string(),
  name: z.string(),
  name_fr: z.string(),
  description_en: z.string(),
  description_fr: z.string(),
  features_en: z.array(z.string()),
  features_fr: z.array(z.string()),
  /** The name, description and features in the other locales ("" and [] when there are none). */
  ...perLocaleText("name"),
  ...perLocaleText("description"),
  ...perLocale("features", z.array(z.string())),
  amount: z.number().int(),
  currency: z.string(),
  interval: planInterval,
  active: z.boolean(),
  is_default: z.boolean(),
  /** amount > 0 */
  premium: z.boolean(),
  position: z.number().int(),
  /** "all": every course; "courses": only `course_ids` (one course: a single-course plan). */
  scope: planScope,
  /** The courses a plan of scope "courses" opens (empty for "all"). */
  course_ids: z.array(z.string()),
  /** Free days a learner's first subscription starts with (0: none; one trial per learner, ever). */
  trial_days: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Plan = z.infer<typeof plan>;

const planName = z.string().trim().min(1).max(120);
const featureList = z.array(z.string().trim().min(1).max(200)).max(30);
/** The name in a locale besides French and English: may be empty (the reader then gets the fallback). */
const otherPlanName = z.string().trim().max(120);
const amountCents = z.number().int().min(0).max(100_000_000);
/** At most a year of free days (PayPal's trial cycle counts days up to 365). */
export const TRIAL_DAYS_MAX = 365;
const trialDays = z.number().int().min(0).max(TRIAL_DAYS_MAX);
const currencyCode = z
  .string()
  .regex(/^[A-Z]{3}$/, "An ISO 4217 code in capitals, e.g. EUR")
  .default("EUR");

const planFields = {
  name: planName,
  name_fr: planName,
  description_en: z.string().max(2000).default(""),
  description_fr: z.string().max(2000).default(""),
  features_en: featureList.default([]),
  features_fr: featureList.default([]),
  ...perLocale("name", otherPlanName.default("")),
  ...perLocale("description", z.string().max(2000).default("")),
  ...perLocale("features", featureList.default([])),
  amount: amountCents,
  currency: currencyCode,
  interval: planInterval.default("month"),
  active: z.boolean().default(true),
  position: z.number().int().min(0).max(10_000).default(0),
  scope: planScope.default("all"),
  course_ids: planCourseIds.default([]),
  trial_days: trialDays.default(0),
};

/** A paid plan recurs, unless it sells chosen courses once. */
const paidPlansRecur = (p: {
  amount?: number | undefined;
  interval?: PlanInterval | undefined;
  scope?: PlanScope | undefined;
}) => !(p.amount !== undefined && p.amount > 0 && p.interval === "once" && p.scope === "all");
/** A plan of scope "courses" names at least one course; a plan of scope "all" names none. */
const scopeNamesCourses = (p: { scope?: PlanScope | undefined; course_ids?: string[] | undefined }) =>
  p.scope === undefined ||
  p.course_ids === undefined ||
  (p.scope === "courses" ? p.course_ids.length > 0 : p.course_ids.length === 0);
const scopeMessage = {
  message: "A plan of chosen courses names at least one; a plan of every course names none",
  path: ["course_ids"],
};
/** Free days start a subscription: a plan bought once, or a free one, has none. */
const trialRecurs = (p: {
  amount?: number | undefined;
  interval?: PlanInterval | undefined;
  trial_days?: number | undefined;
}) => !(p.trial_days !== undefined && p.trial_days > 0 && (p.interval === "once" || p.amount === 0));
const trialMessage = {
  message: "Only a paid plan billed by month or year starts with free days",
  path: ["trial_days"],
};
const recurMessage = {
  message: "A paid plan of every course is billed by month or year (only chosen courses are sold once)",
  path: ["interval"],
};

/** `POST /v1/plans`. The default free plan is seeded; no other plan can become the default. */
export const createPlanBody = z
  .object(planFields)
  .strict()
  .refine(paidPlansRecur, recurMessage)
  .refine(scopeNamesCourses, scopeMessage)
  .refine(trialRecurs, trialMessage)
  .meta({
    examples: [
      {
        name: "Premium",
        name_fr: "Premium",
        description_en: "Every lesson of every course",
        description_fr: "Toutes les leçons de tous les cours",
        features_en: ["All courses", "Offline listening"],
        features_fr: ["Tous les cours", "Écoute hors ligne"],
        name_es: "Premium",
        description_es: "Todas las lecciones de todos los cursos",
        features_es: ["Todos los cursos", "Escucha sin conexión"],
        amount: 990,
        currency: "EUR",
        interval: "month",
        active: true,
        position: 1,
      },
    ],
  });
export type CreatePlanBody = z.infer<typeof createPlanBody>;

/** `PUT /v1/plans/{id}`: any subset of the fields. */
export const updatePlanBody = z
  .object({
    name: planName.optional(),
    name_fr: planName.optional(),
    description_en: z.string().max(2000).optional(),
    description_fr: z.string().max(2000).optional(),
    features_en: featureList.optional(),
    features_fr: featureList.optional(),
    ...perLocaleOptional("name", otherPlanName),
    ...perLocaleOptional("description", z.string().max(2000)),
    ...perLocaleOptional("features", featureList),
    amount: amountCents.optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, "An ISO 4217 code in capitals, e.g. EUR")
      .optional(),
    interval: planInterval.optional(),
    active: z.boolean().optional(),
    position: z.number().int().min(0).max(10_000).optional(),
    scope: planScope.optional(),
    course_ids: planCourseIds.optional(),
    trial_days: trialDays.optional(),
  })
  .strict()
  .refine(paidPlansRecur, recurMessage)
  .refine(scopeNamesCourses, scopeMessage)
  .refine(trialRecurs, trialMessage);
export type UpdatePlanBody = z.infer<typeof updatePlanBody>;

export const plansResponse = envelope(z.object({ plans: z.array(plan) }));

export const planResponse = envelope(z.object({ plan }));
/** `DELETE /v1/plans/{id}`: deleted, or only deactivated because learners subscribed to it. */
export const planDeleteResponse = envelope(z.object({ deleted: z.boolean(), plan }));

// ---------------------------------------------------------------- customer plans

export const customerPlanStatus = z.enum(["APPROVAL_PENDING", "ACTIVE", "SUSPENDED", "CANCELLED", "EXPIRED"]);
export type CustomerPlanStatus = z.infer<typeof customerPlanStatus>;

/** What the learner picks: PayPal, a card (PayPal's card funding on the same subscription), or the demo checkout. */
export const checkoutProvider = z.enum(["paypal", "card", "demo"]);
export type CheckoutProvider = z.infer<typeof checkoutProvider>;

export const customerPlanPlan = z.object({
  id: z.string(),
  name: z.string(),
  name_fr: z.string(),
  ...perLocaleText("name"),
  amount: z.number().int(),
  currency: z.string(),
  interval: planInterval,
  premium: z.boolean(),
});

export const customerPlan = z.object({
  id: z.string(),
  user_id: z.string(),
  plan_id: z.string(),
  plan: customerPlanPlan,
  status: customerPlanStatus,
  /** "paypal" (PayPal and card), "demo", or "free". */
  provider: z.string(),
  /** The provider's subscription id (spec name; also set for the demo provider). */
  paypal_subscription_id: z.string().nullable(),
  started_at: z.string().nullable(),
  last_payment_at: z.string().nullable(),
  next_billing_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  /** After a cancellation: premium access lasts until then. */
  access_until: z.string().nullable(),
  /** The free days this subscription started with (null: none), and when they end (its first payment). */
  trial_days: z.number().int().nullable(),
  trial_ends_at: z.string().nullable(),
  /**
   * Set when this subscription activated while the learner already held another one (the id of
   * that one, kept): it was cancelled at once and the payment it took is refunded.
   */
  duplicate_of: z.string().nullable(),
  /** The coupon taken at checkout (null: none): its code, the payments it discounts, what they cost. */
  coupon: z
    .object({
      code: z.string(),
      duration: z.enum(["once", "forever"]),
      list_amount: z.number().int(),
      amount: z.number().int(),
    })
    .nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CustomerPlan = z.infer<typeof customerPlan>;

export const startSubscriptionBody = z
  .object({
    plan_id: z.uuid(),
    /** Default: the server's provider ("paypal" when configured, else "demo"). */
    provider: checkoutProvider.optional(),
    /** The web's language: return pages are under /en for "en". Default "fr". */
    locale: localeSchema.optional(),
    /** The country the learner lives in (ISO 3166-1 alpha-2): their invoices' VAT. Default: the seller's. */
    country: countryCode.optional(),
    /** A coupon code: its use is taken when the checkout starts (409 COUPON_USED_UP when none is left). */
    coupon: couponCode.optional(),
  })
  .strict()
  .meta({
    examples: [{ plan_id: "0b9f6c1e-4a55-4c2e-9a43-2f1d3c8e7a10", provider: "paypal", locale: "fr" }],
  });
export type StartSubscriptionBody = z.infer<typeof startSubscriptionBody>;

export const startSubscriptionResponse = envelope(
  z.object({
    customerPlan,
    /** Where to send the learner: PayPal's approval page, or our demo checkout (a path on our site). */
    approveUrl: z.string(),
  }),
);

export const customerPlanResponse = envelope(z.object({ customerPlan: customerPlan.nullable() }));
export const planCheckResponse = envelope(
  z.object({ customerPlan, cancelled: z.boolean(), plan_id: z.string().nullable() }),
);
export const validProPlanResponse = envelope(
  z.object({ valid: z.boolean(), customerPlan: customerPlan.nullable() }),
);

/** Body of `POST /update-plan-status` and `/update-last-payment`: the status is never taken from the client. */
export const customerPlanRefBody = z.object({ id: z.uuid(), status: customerPlanStatus.optional() }).strict();

/** Staff may look at another learner's customer plans. */
export const customerPlanUserQuery = z.object({ user_id: z.uuid().optional() });

export const payment = z.object({
  id: z.string(),
  /** The subscription it paid, or null for a course bought once (`purchase_id`). */
  customer_plan_id: z.string().nullable(),
  purchase_id: z.string().nullable(),
  amount: z.number().int(),
  currency: z.string(),
  provider: z.string(),
  provider_payment_id: z.string(),
  paid_at: z.string(),
  /** REFUNDED: a course bought once whose payment staff refunded (its credit note is `credit_note`). */
  status: z.enum(["PAID", "REFUNDED"]),
  plan_name: z.string().nullable(),
  plan_name_fr: z.string().nullable(),
  /** The payment's receipt (null for a payment recorded before receipts existed). */
  receipt: z.object({ id: z.string(), number: z.string() }).nullable(),
  credit_note: z.object({ id: z.string(), number: z.string() }).nullable(),
});
export type Payment = z.infer<typeof payment>;

/** A numbered receipt as the learner (or staff) reads it: what was printed, copied when it was issued. */
export const receipt = z.object({
  id: z.string(),
  number: z.string(),
  payment_id: z.string(),
  issued_at: z.string(),
  /** A receipt of a payment, or the credit note of its refund (`credit_of`: the receipt it cancels). */
  kind: z.enum(["receipt", "credit_note"]),
  credit_of: z.object({ id: z.string(), number: z.string() }).nullable(),
  /** What was paid: a subscription to a plan (`plan_name`), or a course bought once (its offer's name). */
  item: z.enum(["subscription", "course"]),
  /** The price before a coupon and the coupon's code (null: none was used; `amount` is what was paid). */
  list_amount: z.number().int().nullable(),
  coupon_code: z.string().nullable(),
  status: z.enum(["PAID", "REFUNDED"]),
  lang: z.enum(SPEAK_CODES),
  /** The buyer, with the country whose VAT the invoice charges (null: issued before VAT). */
  buyer: z.object({ name: z.string(), email: z.string(), country: z.string().nullable() }),
  plan_name: z.string(),
  plan_name_fr: z.string(),
  /** What was paid, tax included. */
  amount: z.number().int(),
  /**
   * The VAT inside `amount`: its rate in basis points (2000 = 20 %), its amount and the amount
   * without it, in cents; `note` says why there is none ("exempt": art. 293 B du CGI;
   * "outside_eu": a consumer outside the EU), null when VAT is charged.
   */
  vat: z.object({
    rate: z.number().int(),
    amount: z.number().int(),
    net: z.number().int(),
    note: z.enum(["exempt", "outside_eu"]).nullable(),
  }),
  currency: z.string(),
  provider: z.string(),
  seller: z.object({
    name: z.string(),
    address: z.string(),
    tax_id: z.string(),
    email: z.string(),
    country: z.string(),
    vat_number: z.string(),
  }),
});
export type Receipt = z.infer<typeof receipt>;
export const receiptResponse = envelope(z.object({ receipt }));
export type ReceiptResponse = z.infer<typeof receiptResponse>;
/** `GET /v1/receipts/:id/pdf?lang=`: the PDF in the asked language, else the learner's. */
export const receiptPdfQuery = z.object({ lang: localeSchema.optional() });

export const lastPaymentResponse = envelope(z.object({ customerPlan, payment: payment.nullable() }));

export const paymentsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  user_id: z.uuid().optional(),
});
export const paymentsResponse = envelope(z.object({ payments: z.array(payment), pagination }));

/** `GET /v1/billing/providers`: which checkout buttons to show. The PayPal client id is public by design. */
export const billingProvidersResponse = envelope(
  z.object({
    provider: z.enum(["paypal", "demo"]),
    checkout: z.array(checkoutProvider),
    paypal_client_id: z.string().nullable(),
  }),
);

export const webhookAckResponse = envelope(z.object({ received: z.boolean(), duplicate: z.boolean() }));

/** `GET /v1/billing/trial`: whether the caller may still start a plan with its free days (one trial per learner, ever). */
export const trialEligibilityResponse = envelope(z.object({ available: z.boolean() }));
