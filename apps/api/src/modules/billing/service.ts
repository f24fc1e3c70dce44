import type { CustomerPlan } from "@parlons/contract";
import { and, desc, eq, gt, inArray, isNotNull, lte, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { pageOf } from "../../db/paginate";
import { customerPlans, payments } from "../../db/schema/billing";
import { badRequest, conflict, notFound } from "../../lib/errors";
import type { BillingDeps } from "./deps";
import { type CustomerPlanRow, type PaymentRow, presentCustomerPlan, presentPayment } from "./present";
import { createStartSubscription } from "./start-subscription";
import type { TransitionIntent } from "./state-machine";
import { createSweeps } from "./sweeps";
import { createTransition } from "./transition";
import { createTrials } from "./trials";
import { createWebhookHandler } from "./webhooks";

export type { BillingDeps };

/** How long after its access ended a cancelled subscription is still looked at by the sync job. */
const SETTLE_WINDOW_MS = 30 * 86_400_000;

export function createBillingService(deps: BillingDeps) {
  const { db, providers, users, log } = deps;
  const webhooks = createWebhookHandler(db, (id) => sync(id), deps.completeOrder);
  const trials = createTrials(db);
  const start = createStartSubscription(deps, trials);

  /**
   * The user's current plan and, when that plan is premium, the customer plan that grants it
   * (null when none does) and the courses it opens (`courseIds`, null for every course). Entitlement reads it; billing uses it to put a user whose paid access
   * ended back on the free plan.
   */
  async function subscriptionOf(userId: string, now = new Date(), tx: DbOrTx = db) {
    const user = await users.findById(userId, tx);
    const plan = user?.planId ? await deps.plans.get(user.planId, tx) : null;
    if (!plan || plan.amount <= 0)
      return { premiumPlan: false, customerPlanId: null, until: null, courseIds: null };
    const [row] = await tx
      .select({ id: customerPlans.id, status: customerPlans.status, accessUntil: customerPlans.accessUntil })
      .from(customerPlans)
      .where(
        and(
          eq(customerPlans.userId, userId),
          eq(customerPlans.planId, plan.id),
          or(
            eq(customerPlans.status, "ACTIVE"),
            and(
              inArray(customerPlans.status, ["CANCELLED", "SUSPENDED"]),
              gt(customerPlans.accessUntil, now),
            ),
          ),
        ),
      )
      .orderBy(desc(customerPlans.createdAt))
      .limit(1);
    // a cancelled or suspended subscription opens everything until its paid time ends
    const until = row && row.status !== "ACTIVE" ? row.accessUntil : null;
    // what the plan opens: every course (null) or the courses it names
    const courseIds = plan.scope === "courses" ? plan.courseIds : null;
    return { premiumPlan: true, customerPlanId: row?.id ?? null, until, courseIds };
  }

  async function withPlan(row: CustomerPlanRow): Promise<CustomerPlan> {
    return presentCustomerPlan(row, await deps.plans.get(row.planId));
  }

  async function load(id: string, tx: DbOrTx = db): Promise<CustomerPlanRow> {
    const [row] = await tx.select().from(customerPlans).where(eq(customerPlans.id, id));
    if (!row) throw notFound("Customer plan");
    return row;
  }

  /** A user whose current plan is premium but no longer granted (ended, suspended, cancelled) goes back to the free plan. */
  async function settle(userId: string, tx: DbOrTx = db, now = new Date()): Promise<void> {
    const { premiumPlan, customerPlanId } = await subscriptionOf(userId, now, tx);
    if (premiumPlan && !customerPlanId) {
      await users.update(userId, { planId: await users.defaultPlanId(tx) }, tx);
    }
    // inside a transaction, its owner tells after the commit
    if (tx === db) deps.changes?.publish(`user:${userId}`);
  }

  /** Best effort, after the commit: the provider is told to stop billing subscriptions we ended. */
  async function cancelAtProviders(list: { provider: string; id: string }[]): Promise<void> {
    for (const item of list) {
      try {
        await providers.byName(item.provider)?.cancelSubscription(item.id, "Replaced or ended on Parlons");
      } catch (err) {
        log.warn(
          { err, subscription: item.id },
          "could not cancel a subscription at the provider; the sync job retries",
        );
      }
    }
  }

  const { transition } = createTransition(deps, { settle, cancelAtProviders, keepTrial: trials.keep });

  const sweeps = createSweeps(deps, { load: (id) => load(id), sync: (id) => sync(id), transition });

  /** Re-reads the provider's subscription and applies it. Free rows (no provider) are returned as they are. */
  async function sync(id: string, intent: TransitionIntent = "sync"): Promise<CustomerPlanRow> {
    const row = await load(id);
    const provider = providers.byName(row.provider);
    if (!provider || !row.providerSubscriptionId) return row;
    const truth = await provider.getSubscription(row.providerSubscriptionId);
    return transition(id, truth, intent);
  }

  async function latestPayment(customerPlanId: string): Promise<PaymentRow | null> {
    const [row] = await db
      .select()
      .from(payments)
      .where(and(eq(payments.customerPlanId, customerPlanId), eq(payments.status, "PAID")))
      .orderBy(desc(payments.paidAt))
      .limit(1);
    return row ?? null;
  }

  async function validOf(userId: string): Promise<CustomerPlanRow | null> {
    const { customerPlanId } = await subscriptionOf(userId);
    return customerPlanId ? load(customerPlanId) : null;
  }

  /** The demo checkout: the owner plays the buyer; the change then goes through the state machine. */
  async function demoDecide(id: string, decision: "approve" | "decline") {
    const row = await load(id);
    const demo = providers.demo;
    if (!demo || row.provider !== "demo" || !row.providerSubscriptionId)
      throw badRequest("This customer plan is not a demo checkout");
    // a checkout that expired or closed here is never decided afterwards
    if (row.status !== "APPROVAL_PENDING") throw conflict("This checkout is closed; start a new one");
    const plan = await deps.plans.get(row.planId);
    const price = {
      // with a coupon, the first payment is the discounted price (renewals: sweeps.ts)
      amount: row.discountedAmount ?? plan.amount,
      currency: plan.currency,
      interval: plan.interval === "year" ? ("year" as const) : ("month" as const),
      trialDays: row.trialDays ?? 0,
    };
    if (decision === "approve") await demo.approve(row.providerSubscriptionId, row.id, price);
    else await demo.decline(row.providerSubscriptionId, row.id, price);
    return withPlan(await sync(id));
  }

  return {
    subscriptionOf,
    sync,
    transition,
    settle,
    handleWebhook: webhooks.handle,

    start,

    /** The user's latest customer plan for a plan. */
    async byPlanId(owner: string, planId: string): Promise<CustomerPlan | null> {
      const [row] = await db
        .select()
        .from(customerPlans)
        .where(and(eq(customerPlans.userId, owner), eq(customerPlans.planId, planId)))
        .orderBy(desc(customerPlans.createdAt))
        .limit(1);
      return row ? withPlan(row) : null;
    },

    async updateStatus(id: string): Promise<CustomerPlan> {
      await load(id);
      return withPlan(await sync(id));
    },

    /** Spec §4's check: the provider says it is not ACTIVE while ours is ACTIVE → ours follows, the user falls back to free. */
    async planCheck(id: string) {
      const before = await load(id);
      const after = await sync(id);
      const current = await users.getCurrentUser(after.userId);
      return {
        customerPlan: await withPlan(after),
        cancelled: before.status === "ACTIVE" && after.status !== "ACTIVE",
        plan_id: current.plan_id,
      };
    },

    async updateLastPayment(id: string) {
      await load(id);
      const row = await sync(id);
      const payment = await latestPayment(id);
      const receipt = payment ? (await deps.receipts.ofPayments([payment.id])).get(payment.id) : undefined;
      return {
        customerPlan: await withPlan(row),
        payment: payment ? presentPayment(payment, receipt) : null,
      };
    },

    async validFor(userId: string): Promise<CustomerPlan | null> {
      const row = await validOf(userId);
      return row ? withPlan(row) : null;
    },

    /** The learner cancels: the provider first, then its truth; access stays until the paid period ends. */
    async cancel(id: string): Promise<CustomerPlan> {
      const row = await load(id);
      if (row.status !== "ACTIVE" && row.status !== "SUSPENDED")
        throw conflict(
          `Only an active or suspended subscription can be cancelled (this one is ${row.status})`,
        );
      const provider = providers.byName(row.provider);
      if (!provider || !row.providerSubscriptionId)
        throw conflict("This subscription has no provider to cancel with");
      await provider.cancelSubscription(row.providerSubscriptionId, "Cancelled by the learner on Parlons");
      const truth = await provider.getSubscription(row.providerSubscriptionId);
      return withPlan(await transition(id, truth, "learner-cancel"));
    },

    async payments(owner: string, query: { page: number; pageSize: number }) {
      // a duplicate's payment (to be refunded) is no payment for a plan the learner held
      const where = and(eq(payments.userId, owner), eq(payments.status, "PAID"));
      const { rows, pagination } = await pageOf(db, query, payments, where, [desc(payments.paidAt)]);
      const ids = rows.map((r) => r.id);
      const receiptsOf = await deps.receipts.ofPayments(ids);
      const creditNotesOf = await deps.receipts.ofPayments(ids, db, "credit_note");
      return {
        payments: rows.map((r) => presentPayment(r, receiptsOf.get(r.id), creditNotesOf.get(r.id))),
        pagination,
      };
    },

    /** Whether the learner's next subscription would start with free days (one trial, ever). */
    trialAvailable: (userId: string) => trials.available(userId),

    demoApprove: (id: string) => demoDecide(id, "approve"),
    demoDecline: (id: string) => demoDecide(id, "decline"),

    /** The user a customer plan belongs to (null: no such customer plan), for the access policy. */
    async subscriberOf(id: string): Promise<string | null> {
      const [row] = await db
        .select({ userId: customerPlans.userId })
        .from(customerPlans)
        .where(eq(customerPlans.id, id));
      return row?.userId ?? null;
    },

    /** After a login: the spec's check on the user's current paid plan. Never throws (the login must not fail). */
    async checkAtLogin(userId: string): Promise<void> {
      try {
        const current = await users.getCurrentUser(userId);
        const plan = current.plan;
        if (!plan || plan.is_default || plan.amount <= 0) return;
        const [row] = await db
          .select()
          .from(customerPlans)
          .where(
            and(
              eq(customerPlans.userId, userId),
              eq(customerPlans.planId, plan.id),
              inArray(customerPlans.status, ["ACTIVE", "SUSPENDED"]),
            ),
          )
          .orderBy(desc(customerPlans.createdAt))
          .limit(1);
        if (row) await sync(row.id);
        await settle(userId);
      } catch (err) {
        log.warn({ err, userId }, "subscription check at login failed; the login goes on");
      }
    },

    /**
     * One run of the periodic sync: every live paid subscription re-read from its provider, and
     * users whose paid time ran out put back on the free plan. Errors are logged per row.
     *
     * Recent checkouts still pending with us and subscriptions we recently ended are re-read too:
     * a checkout approved at the provider whose return we never saw activates (or, when the learner
     * already holds another plan, is cancelled there as a duplicate), and one we ended whose
     * cancellation at the provider failed is cancelled again. So a learner billed twice is repaired.
     */
    async syncDue(
      now = new Date(),
    ): Promise<{ synced: number; failed: number; settled: number; renewed: number }> {
      // the demo provider bills its ended periods first, as PayPal would have
      const { renewed, failed: renewalsFailed } = await sweeps.billDemoRenewals(now);
      const recent = new Date(now.getTime() - SETTLE_WINDOW_MS);
      const live = await db
        .select({ id: customerPlans.id })
        .from(customerPlans)
        .where(
          and(
            inArray(customerPlans.provider, ["paypal", "demo"]),
            isNotNull(customerPlans.providerSubscriptionId),
            or(
              inArray(customerPlans.status, ["ACTIVE", "SUSPENDED"]),
              and(eq(customerPlans.status, "APPROVAL_PENDING"), gt(customerPlans.createdAt, recent)),
              and(eq(customerPlans.status, "CANCELLED"), gt(customerPlans.cancelledAt, recent)),
            ),
          ),
        )
        // the plans learners hold first: a pending duplicate then meets the plan that is kept
        .orderBy(sql`${customerPlans.status} <> 'ACTIVE'`, customerPlans.createdAt);
      let synced = 0;
      let failed = renewalsFailed;
      for (const { id } of live) {
        try {
          await sync(id);
          synced += 1;
        } catch (err) {
          failed += 1;
          log.warn({ err, customerPlanId: id }, "subscription sync failed");
        }
      }
      const ended = await db
        .selectDistinct({ userId: customerPlans.userId })
        .from(customerPlans)
        .where(
          and(
            inArray(customerPlans.status, ["CANCELLED", "SUSPENDED"]),
            lte(customerPlans.accessUntil, now),
            gt(customerPlans.accessUntil, new Date(now.getTime() - SETTLE_WINDOW_MS)),
          ),
        );
      for (const { userId } of ended) await settle(userId, db, now);
      return { synced, failed, settled: ended.length, renewed };
    },

    /** Checkouts pending past the approval window closed, their coupon's use given back (sweeps.ts). */
    expireCheckouts: (now = new Date()) => sweeps.expireCheckouts(now),
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
