import type { CustomerPlan, Payment } from "@parlons/contract";
import type { customerPlans, payments, receipts } from "../../db/schema/billing";
import { translatedFields } from "../../lib/naming";
import type { PlanRow } from "../plans/service";

export type CustomerPlanRow = typeof customerPlans.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
type ReceiptRow = typeof receipts.$inferSelect;

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentCustomerPlan(row: CustomerPlanRow, plan: PlanRow): CustomerPlan {
  return {
    id: row.id,
    user_id: row.userId,
    plan_id: row.planId,
    plan: {
      id: plan.id,
      name: plan.name,
      name_fr: plan.nameFr,
      ...translatedFields(plan.translations, ["name"], ""),
      amount: plan.amount,
      currency: plan.currency,
      interval: plan.interval,
      premium: plan.amount > 0,
    },
    status: row.status,
    provider: row.provider,
    paypal_subscription_id: row.providerSubscriptionId,
    started_at: iso(row.startedAt),
    last_payment_at: iso(row.lastPaymentAt),
    next_billing_at: iso(row.nextBillingAt),
    cancelled_at: iso(row.cancelledAt),
    access_until: iso(row.accessUntil),
    duplicate_of: row.duplicateOf,
    coupon:
      row.couponCode && row.couponDuration && row.listAmount !== null && row.discountedAmount !== null
        ? {
            code: row.couponCode,
            duration: row.couponDuration,
            list_amount: row.listAmount,
            amount: row.discountedAmount,
          }
        : null,
    trial_days: row.trialDays,
    trial_ends_at:
      row.trialDays && row.startedAt
        ? new Date(row.startedAt.getTime() + row.trialDays * 86_400_000).toISOString()
        : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentPayment(row: PaymentRow, receipt?: ReceiptRow, creditNote?: ReceiptRow): Payment {
  return {
    id: row.id,
    customer_plan_id: row.customerPlanId,
    purchase_id: row.purchaseId,
    amount: row.amount,
    currency: row.currency,
    provider: row.provider,
    provider_payment_id: row.providerPaymentId,
    paid_at: row.paidAt.toISOString(),
    status: creditNote ? "REFUNDED" : "PAID",
    plan_name: receipt?.planNameEn ?? null,
    plan_name_fr: receipt?.planNameFr ?? null,
    receipt: receipt ? { id: receipt.id, number: receipt.number } : null,
    credit_note: creditNote ? { id: creditNote.id, number: creditNote.number } : null,
  };
}
