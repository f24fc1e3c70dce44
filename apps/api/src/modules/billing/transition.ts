import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db, DbOrTx } from "../../db/client";
import { customerPlans, payments } from "../../db/schema/billing";
import type { ProviderSubscription } from "../../integrations/payments";
import type { ChangeBus } from "../../lib/change-bus";
import { notFound } from "../../lib/errors";
import type { NotificationService } from "../notifications/service";
import type { PlanService } from "../plans/service";
import type { UserService } from "../users/service";
import type { CouponService } from "./coupons";
import { type CustomerPlanRow, iso } from "./present";
import type { ReceiptService } from "./receipts";
import { decide, type TransitionIntent } from "./state-machine";

export type PaymentOutcome =
  | "checkout_started"
  | "checkout_failed"
  | "payment_recorded"
  | "activated"
  | "duplicate_cancelled"
  | "refund_due";

/**
 * The coupon a subscription's payment was discounted by, for its receipt: a payment at the
 * discounted price (the first, or every one for a coupon "forever"); a payment at the plan's
 * price after a first-payment coupon names none.
 */
function couponOf(row: CustomerPlanRow, amount: number) {
  if (!row.couponCode || row.listAmount === null || row.discountedAmount !== amount) return undefined;
  return amount < row.listAmount ? { listAmount: row.listAmount, code: row.couponCode } : undefined;
}

/** The first key of the learners' advisory locks (the second is the hashed user id): "cplk". */
const LEARNER_LOCK_SPACE = 0x63706c6b;

/**
 * Makes the changes of one learner's subscriptions take turns until the transaction ends: a
 * transaction-scoped advisory lock (PgBouncer-safe, released at commit or rollback, on PGlite as
 * on PostgreSQL), so billing need not lock the users table it does not own.
 */
async function lockLearner(tx: DbOrTx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${LEARNER_LOCK_SPACE}, hashtext(${userId}))`);
}

/**
 * The one way a customer plan's status changes: the provider's truth applied by the state
 * machine (state-machine.ts) to the locked row, with what follows in the same transaction (the
 * learner's plan, notifications, payments and receipts) and after it (the change announced,
 * payment events counted, replaced subscriptions cancelled at their provider).
 */
export function createTransition(
  deps: {
    db: Db;
    users: Pick<UserService, "update">;
    plans: Pick<PlanService, "get">;
    notifications: Pick<NotificationService, "notify">;
    receipts: Pick<ReceiptService, "issue">;
    /** Gives back the coupon use of a checkout that closed unpaid. */
    coupons?: Pick<CouponService, "release">;
    log: FastifyBaseLogger;
    changes?: ChangeBus;
    onPaymentEvent?: (provider: string, outcome: PaymentOutcome) => void;
  },
  billing: {
    settle: (userId: string, tx: DbOrTx, now: Date) => Promise<void>;
    cancelAtProviders: (list: { provider: string; id: string }[]) => Promise<void>;
    /** Whether a checkout with free days still holds the learner's one trial (trials.ts). */
    keepTrial?: (userId: string, customerPlanId: string, tx: DbOrTx) => Promise<boolean>;
  },
) {
  const { db, users, log } = deps;
  const { settle, cancelAtProviders } = billing;

  /** Tells the learner, in the same transaction, that their subscription started, was cancelled or ended. */
  async function notifyChange(
    before: CustomerPlanRow,
    after: CustomerPlanRow,
    activated: boolean,
    intent: TransitionIntent,
    tx: DbOrTx,
  ): Promise<void> {
    const wasLive = before.status === "ACTIVE" || before.status === "SUSPENDED";
    const ended = wasLive && (after.status === "CANCELLED" || after.status === "EXPIRED");
    if (!activated && !ended) return;
    const plan = await deps.plans.get(before.planId, tx);
    const data = { plan_name: plan.name, plan_name_fr: plan.nameFr };
    if (activated) {
      await deps.notifications.notify(before.userId, "subscription.active", data, "/billing", tx);
    } else if (intent === "learner-cancel") {
      await deps.notifications.notify(
        before.userId,
        "subscription.cancelled",
        { ...data, access_until: iso(after.accessUntil) },
        "/billing",
        tx,
      );
    } else {
      await deps.notifications.notify(before.userId, "subscription.ended", data, "/pricing", tx);
    }
  }

  /**
   * Applies the provider's truth to one customer plan: the only way a customer plan's status
   * changes. Runs in one transaction with the row locked, so concurrent webhooks, return pages
   * and sync runs apply one after the other and the second finds nothing left to change.
   */
  async function transition(
    id: string,
    truth: ProviderSubscription,
    intent: TransitionIntent = "sync",
    now = new Date(),
  ): Promise<CustomerPlanRow> {
    const toCancel: { provider: string; id: string }[] = [];
    const told: PaymentOutcome[] = [];
    const [owner] = await db
      .select({ userId: customerPlans.userId })
      .from(customerPlans)
      .where(eq(customerPlans.id, id));
    if (!owner) throw notFound("Customer plan");
    const row = await db.transaction(async (tx) => {
      // the learner's lock first, then the row's: every change to one learner's plans takes turns
      await lockLearner(tx, owner.userId);
      const [current] = await tx.select().from(customerPlans).where(eq(customerPlans.id, id)).for("update");
      if (!current) throw notFound("Customer plan");
      const [holder] = await tx
        .select({ id: customerPlans.id })
        .from(customerPlans)
        .where(
          and(
            eq(customerPlans.userId, current.userId),
            eq(customerPlans.status, "ACTIVE"),
            ne(customerPlans.id, id),
          ),
        )
        .limit(1);
      const starting =
        current.status === "APPROVAL_PENDING" && truth.status === "ACTIVE" && (current.trialDays ?? 0) > 0;
      const trialTaken =
        starting && billing.keepTrial ? !(await billing.keepTrial(current.userId, id, tx)) : false;
      if (trialTaken)
        log.warn(
          { customerPlanId: id },
          "a stale checkout with free days was approved after the trial was used",
        );
      const decision = decide(current, truth, intent, now, { holderId: holder?.id ?? null, trialTaken });
      let next = current;
      if (decision.cancelAtProvider && current.providerSubscriptionId)
        toCancel.push({ provider: current.provider, id: current.providerSubscriptionId });
      if (decision.patch?.duplicateOf) told.push("duplicate_cancelled");
      if (decision.activated) {
        told.push("activated");
        // a change of plan: the new subscription replaces every other live one of the user, before
        // it becomes ACTIVE itself (one ACTIVE per learner, a unique index)
        const others = await tx
          .select()
          .from(customerPlans)
          .where(
            and(
              eq(customerPlans.userId, current.userId),
              ne(customerPlans.id, id),
              inArray(customerPlans.status, ["ACTIVE", "SUSPENDED", "CANCELLED"]),
            ),
          );
        for (const other of others) {
          const live = other.status !== "CANCELLED";
          if (!live && !(other.accessUntil && other.accessUntil > now)) continue;
          await tx
            .update(customerPlans)
            .set({
              status: "CANCELLED",
              cancelledAt: other.cancelledAt ?? now,
              nextBillingAt: null,
              accessUntil: null,
              updatedAt: now,
            })
            .where(eq(customerPlans.id, other.id));
          if (live && other.providerSubscriptionId)
            toCancel.push({ provider: other.provider, id: other.providerSubscriptionId });
        }
      }
      if (decision.patch) {
        const [updated] = await tx
          .update(customerPlans)
          .set({ ...decision.patch, updatedAt: now })
          .where(eq(customerPlans.id, id))
          .returning();
        next = updated ?? current;
      }
      // the payer's country PayPal reports is kept beside the declared one, and wins for VAT
      if (truth.payerCountry && truth.payerCountry !== next.paymentCountry) {
        const [kept] = await tx
          .update(customerPlans)
          .set({ paymentCountry: truth.payerCountry })
          .where(eq(customerPlans.id, id))
          .returning();
        next = kept ?? next;
      }
      if (decision.activated) await users.update(current.userId, { planId: current.planId }, tx);
      // a checkout closed before it was ever paid gives its coupon's use back
      if (
        current.couponId &&
        current.status === "APPROVAL_PENDING" &&
        (next.status === "CANCELLED" || next.status === "EXPIRED") &&
        !truth.lastPayment
      )
        await deps.coupons?.release({ customerPlanId: id }, tx);
      await notifyChange(current, next, decision.activated, intent, tx);
      const paid = truth.lastPayment;
      if (paid && paid.amountCents > 0 && current.providerSubscriptionId) {
        const refund = decision.payment === "refund";
        const inserted = await tx
          .insert(payments)
          .values({
            customerPlanId: id,
            userId: current.userId,
            amount: paid.amountCents,
            currency: paid.currency,
            provider: current.provider,
            // one row per billing cycle, whichever path (return page, webhook, sync) saw it first
            providerPaymentId: `${current.providerSubscriptionId}@${paid.time.toISOString()}`,
            paidAt: paid.time,
            status: refund ? "REFUND_DUE" : "PAID",
          })
          .onConflictDoNothing()
          .returning();
        const payment = inserted[0];
        if (payment && refund) {
          told.push("refund_due");
          log.error(
            { customerPlanId: id, paymentId: payment.id, keptCustomerPlanId: next.duplicateOf },
            "a second subscription of the learner took a payment: refund it at the provider",
          );
        } else if (payment) {
          told.push("payment_recorded");
          await deps.receipts.issue(payment, current.planId, tx, "subscription", {
            declaredCountry: current.buyerCountry,
            coupon: couponOf(current, payment.amount),
            paymentCountry: next.paymentCountry,
          });
        }
      }
      await settle(current.userId, tx, now);
      return next;
    });
    deps.changes?.publish(`user:${row.userId}`);
    for (const outcome of told) deps.onPaymentEvent?.(row.provider, outcome);
    await cancelAtProviders(toCancel);
    return row;
  }

  return { transition };
}
