import { randomUUID } from "node:crypto";
import { and, eq, lte } from "drizzle-orm";
import type { Db } from "../../db/client";
import { demoOrders, demoSubscriptions } from "../../db/schema/billing";
import { conflict } from "../../lib/errors";
import type { PaymentProvider, ProviderOrder, ProviderSubscription } from "./provider";

export interface DemoProvider extends PaymentProvider {
  readonly name: "demo";
  /** The buyer approves on our demo checkout: ACTIVE, first payment "taken", next billing one interval later. */
  approve(id: string, customerPlanId: string, price: DemoPrice, now?: Date): Promise<void>;
  /** The buyer approves a demo order (a course bought once); it is captured afterwards. */
  approveOrder(id: string, purchaseId: string, price: { amount: number; currency: string }): Promise<void>;
  /** The buyer declines a demo order: it will never be captured. */
  declineOrder(id: string, purchaseId: string, price: { amount: number; currency: string }): Promise<void>;
  /** The buyer declines: the subscription never starts. */
  decline(id: string, customerPlanId: string, price: DemoPrice): Promise<void>;
  /** The active demo subscriptions whose next billing time has come by `now`. */
  dueRenewals(now: Date): Promise<{ id: string; customerPlanId: string }[]>;
  /**
   * Bills one due period, as PayPal does when the next billing time comes: the payment is taken at
   * that time (at `amount`, else the subscription's last price) and the next billing moves one
   * interval on. False when nothing was due (or another run billed it first).
   */
  renew(id: string, now: Date, amount?: number): Promise<boolean>;
}

/** A demo subscription's price, and the free days it starts with (0: none). */
interface DemoPrice {
  amount: number;
  currency: string;
  interval: "month" | "year";
  trialDays?: number;
}

function addInterval(from: Date, interval: "month" | "year"): Date {
  const next = new Date(from);
  if (interval === "year") next.setUTCFullYear(next.getUTCFullYear() + 1);
  else next.setUTCMonth(next.getUTCMonth() + 1);
  return next;
}

/**
 * The embedded demo provider: a checkout page on our own site ("Demo payment: no money moves").
 * Its subscriptions live in `demo_subscriptions` and follow PayPal's statuses, so the billing
 * state machine treats them exactly like PayPal's.
 */
export function createDemoProvider(db: Db): DemoProvider {
  async function decide(
    id: string,
    customerPlanId: string,
    price: DemoPrice,
    status: "ACTIVE" | "CANCELLED",
    now: Date,
  ) {
    const [existing] = await db.select().from(demoSubscriptions).where(eq(demoSubscriptions.id, id));
    if (existing && existing.status !== "APPROVAL_PENDING") {
      throw conflict(
        `This demo checkout was already ${existing.status === "ACTIVE" ? "approved" : "closed"}`,
      );
    }
    const active = status === "ACTIVE";
    // with free days, nothing is taken at the start: the first payment is due when they end
    const trialDays = price.trialDays ?? 0;
    const values = {
      status,
      amount: price.amount,
      currency: price.currency,
      interval: price.interval,
      startTime: active ? now : null,
      lastPaymentTime: active && trialDays === 0 ? now : null,
      nextBillingTime: active
        ? trialDays > 0
          ? new Date(now.getTime() + trialDays * 86_400_000)
          : addInterval(now, price.interval)
        : null,
      statusUpdateTime: now,
    };
    await db
      .insert(demoSubscriptions)
      .values({ id, customerPlanId, ...values })
      .onConflictDoUpdate({ target: demoSubscriptions.id, set: values });
  }

  async function decideOrder(
    id: string,
    purchaseId: string,
    price: { amount: number; currency: string },
    status: "APPROVED" | "VOIDED",
  ) {
    const [written] = await db
      .insert(demoOrders)
      .values({ id, purchaseId, status, amount: price.amount, currency: price.currency })
      .onConflictDoNothing()
      .returning({ id: demoOrders.id });
    if (!written) throw conflict("This demo checkout was already decided");
  }

  async function readOrder(id: string): Promise<ProviderOrder> {
    const [row] = await db.select().from(demoOrders).where(eq(demoOrders.id, id));
    if (!row) return { id, status: "PENDING" };
    const order: ProviderOrder = { id, status: row.status === "CREATED" ? "PENDING" : row.status };
    if (row.captureId)
      order.capture = {
        id: row.captureId,
        status: row.refunded ? "REFUNDED" : "COMPLETED",
        amountCents: row.amount,
        currency: row.currency,
      };
    return order;
  }

  return {
    name: "demo",

    async createOrder(input) {
      // like a subscription, the demo order is written when the buyer decides
      return {
        id: `DEMO-ORDER-${randomUUID()}`,
        approveUrl: `/billing/purchase-payment?demo=${encodeURIComponent(input.purchaseId)}`,
      };
    },

    getOrder: readOrder,

    async captureOrder(id) {
      // only an approved order is captured, once: a replay reads the capture already made
      await db
        .update(demoOrders)
        .set({ status: "COMPLETED", captureId: `DEMO-CAPTURE-${randomUUID()}`, updatedAt: new Date() })
        .where(and(eq(demoOrders.id, id), eq(demoOrders.status, "APPROVED")));
      return readOrder(id);
    },

    async refundCapture(captureId) {
      await db
        .update(demoOrders)
        .set({ refunded: true, updatedAt: new Date() })
        .where(eq(demoOrders.captureId, captureId));
    },

    approveOrder: (id, purchaseId, price) => decideOrder(id, purchaseId, price, "APPROVED"),
    declineOrder: (id, purchaseId, price) => decideOrder(id, purchaseId, price, "VOIDED"),

    async createBillingPlan() {
      return null;
    },

    async createSubscription(input) {
      // the demo subscription row is written when the buyer decides; until then it is pending
      return {
        id: `DEMO-${randomUUID()}`,
        approveUrl: `/billing/subscription-payment?demo=${encodeURIComponent(input.customerPlanId)}`,
      };
    },

    async getSubscription(id) {
      const [row] = await db.select().from(demoSubscriptions).where(eq(demoSubscriptions.id, id));
      if (!row) return { id, status: "APPROVAL_PENDING" };
      const truth: ProviderSubscription = { id, status: row.status, statusUpdateTime: row.statusUpdateTime };
      if (row.startTime) truth.startTime = row.startTime;
      if (row.nextBillingTime) truth.nextBillingTime = row.nextBillingTime;
      if (row.lastPaymentTime)
        truth.lastPayment = { amountCents: row.amount, currency: row.currency, time: row.lastPaymentTime };
      return truth;
    },

    async cancelSubscription(id) {
      await db
        .update(demoSubscriptions)
        .set({ status: "CANCELLED", nextBillingTime: null, statusUpdateTime: new Date() })
        .where(eq(demoSubscriptions.id, id));
    },

    async verifyWebhook() {
      return false;
    },

    async dueRenewals(now) {
      return db
        .select({ id: demoSubscriptions.id, customerPlanId: demoSubscriptions.customerPlanId })
        .from(demoSubscriptions)
        .where(and(eq(demoSubscriptions.status, "ACTIVE"), lte(demoSubscriptions.nextBillingTime, now)));
    },

    async renew(id, now, amount) {
      const [row] = await db.select().from(demoSubscriptions).where(eq(demoSubscriptions.id, id));
      const due = row?.nextBillingTime;
      if (row?.status !== "ACTIVE" || !due || due > now) return false;
      // conditional on the billing time read: two runs at once bill the period once
      const billed = await db
        .update(demoSubscriptions)
        .set({
          amount: amount ?? row.amount,
          lastPaymentTime: due,
          nextBillingTime: addInterval(due, row.interval),
          statusUpdateTime: due,
        })
        .where(
          and(
            eq(demoSubscriptions.id, id),
            eq(demoSubscriptions.status, "ACTIVE"),
            eq(demoSubscriptions.nextBillingTime, due),
          ),
        )
        .returning({ id: demoSubscriptions.id });
      return billed.length > 0;
    },

    approve(id, customerPlanId, price, now = new Date()) {
      return decide(id, customerPlanId, price, "ACTIVE", now);
    },

    decline(id, customerPlanId, price) {
      return decide(id, customerPlanId, price, "CANCELLED", new Date());
    },
  };
}
