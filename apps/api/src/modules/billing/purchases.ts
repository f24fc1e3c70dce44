import { randomUUID } from "node:crypto";
import { langPrefix, type Purchase, type StartPurchaseBody } from "@parlons/contract";
import { and, count, desc, eq, inArray, lt, type SQL } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db, DbOrTx } from "../../db/client";
import { paginate } from "../../db/paginate";
import { type PurchaseStatus, payments, purchases } from "../../db/schema/billing";
import type { PaymentProviders, ProviderOrder } from "../../integrations/payments";
import type { ChangeBus } from "../../lib/change-bus";
import { AppError, badRequest, conflict, notFound, validationFailed } from "../../lib/errors";
import type { PlanRow, PlanService } from "../plans/service";
import type { Principal, UserService } from "../users/service";
import { CHECKOUT_EXPIRY_MS, checkCheckoutProvider, countedCheckout, providerLocale } from "./checkout";
import type { CouponService } from "./coupons";
import { iso } from "./present";
import { nextPurchaseStep } from "./purchase-machine";
import type { ReceiptService } from "./receipts";
import type { PaymentOutcome } from "./transition";

type PurchaseRow = typeof purchases.$inferSelect;

export interface PurchaseDeps {
  db: Db;
  providers: PaymentProviders;
  plans: Pick<PlanService, "get">;
  users: Pick<UserService, "findById">;
  coupons: Pick<CouponService, "quote" | "redeem" | "release">;
  receipts: Pick<ReceiptService, "issue" | "creditNote" | "ofPayments">;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** Told `user:<id>` after a commit that opened or closed courses for a learner. */
  changes?: ChangeBus;
  onPaymentEvent?: (provider: string, outcome: PaymentOutcome) => void;
}

const notForSale = (message: string) => new AppError(422, "NOT_FOR_SALE", message, { plan_id: [message] });

/** Whether a plan is a course sold once: paid, of interval "once", of chosen courses. */
const soldOnce = (plan: PlanRow) => plan.amount > 0 && plan.interval === "once" && plan.scope === "courses";

/**
 * Courses bought once (issue 28, part 2): an offer of interval "once" paid by one provider order
 * (PayPal Orders v2: create, the buyer approves, we capture; or the demo checkout). A paid purchase
 * opens its courses for life through the entitlement rule; a refund closes them and issues a
 * credit note. Every path that learns of a payment (return page, webhook, demo approve, a replay)
 * goes through `complete`, and only the one whose conditional update moves the purchase from
 * PENDING to PAID records the payment and its receipt: a capture is never granted twice.
 */
export function createPurchaseService(deps: PurchaseDeps) {
  const { db, providers, log } = deps;

  async function load(id: string, tx: DbOrTx = db): Promise<PurchaseRow> {
    const [row] = await tx.select().from(purchases).where(eq(purchases.id, id));
    if (!row) throw notFound("Purchase");
    return row;
  }

  async function present(rows: PurchaseRow[]): Promise<Purchase[]> {
    if (rows.length === 0) return [];
    const paid = await db
      .select({ id: payments.id, purchaseId: payments.purchaseId })
      .from(payments)
      .where(
        inArray(
          payments.purchaseId,
          rows.map((r) => r.id),
        ),
      );
    const paymentOf = new Map(paid.map((p) => [p.purchaseId, p.id]));
    const paymentIds = [...paymentOf.values()];
    const [receiptsOf, creditsOf] = await Promise.all([
      deps.receipts.ofPayments(paymentIds),
      deps.receipts.ofPayments(paymentIds, db, "credit_note"),
    ]);
    const out: Purchase[] = [];
    for (const row of rows) {
      const plan = await deps.plans.get(row.planId);
      const user = await deps.users.findById(row.userId);
      const paymentId = paymentOf.get(row.id);
      const receipt = paymentId ? receiptsOf.get(paymentId) : undefined;
      const credit = paymentId ? creditsOf.get(paymentId) : undefined;
      out.push({
        id: row.id,
        user_id: row.userId,
        buyer: user ? { name: user.fullName, email: user.email } : null,
        plan_id: row.planId,
        plan_name: plan.name,
        plan_name_fr: plan.nameFr,
        course_ids: row.courseIds,
        status: row.status,
        provider: row.provider,
        list_amount: row.listAmount,
        amount: row.amount,
        coupon_code: row.couponCode,
        currency: row.currency,
        paid_at: iso(row.paidAt),
        refunded_at: iso(row.refundedAt),
        created_at: row.createdAt.toISOString(),
        receipt: receipt ? { id: receipt.id, number: receipt.number } : null,
        credit_note: credit ? { id: credit.id, number: credit.number } : null,
      });
    }
    return out;
  }
  const presentOne = async (row: PurchaseRow) => (await present([row]))[0] as Purchase;

  /** Records the capture: the purchase that moves from PENDING to PAID, its payment and receipt, in one transaction. */
  async function record(
    row: PurchaseRow,
    capture: NonNullable<ProviderOrder["capture"]>,
    payerCountry: string | undefined,
  ): Promise<boolean> {
    if (capture.amountCents !== row.amount || capture.currency !== row.currency)
      log.error(
        { purchaseId: row.id, captured: capture, expected: { amount: row.amount, currency: row.currency } },
        "a purchase's capture differs from its price",
      );
    const now = new Date();
    const won = await db.transaction(async (tx) => {
      const [moved] = await tx
        .update(purchases)
        .set({
          status: "PAID",
          paidAt: now,
          providerCaptureId: capture.id,
          paymentCountry: payerCountry ?? null,
        })
        .where(and(eq(purchases.id, row.id), eq(purchases.status, "PENDING")))
        .returning({ id: purchases.id });
      // another path (webhook, a second tab, a replay) recorded it first
      if (!moved) return false;
      const [payment] = await tx
        .insert(payments)
        .values({
          purchaseId: row.id,
          userId: row.userId,
          amount: capture.amountCents,
          currency: capture.currency,
          provider: row.provider,
          providerPaymentId: capture.id,
          paidAt: now,
        })
        .returning();
      if (!payment) throw new Error("payment insert returned nothing");
      await deps.receipts.issue(payment, row.planId, tx, "course", {
        coupon: row.couponCode ? { listAmount: row.listAmount, code: row.couponCode } : undefined,
        declaredCountry: row.buyerCountry,
        paymentCountry: payerCountry ?? null,
      });
      return true;
    });
    if (won) {
      deps.onPaymentEvent?.(row.provider, "payment_recorded");
      deps.changes?.publish(`user:${row.userId}`);
    }
    return won;
  }

  /** Takes the coupon's use for this purchase; none left: the purchase closes uncaptured, and says why. */
  async function takeCouponUse(row: PurchaseRow & { couponId: string }) {
    try {
      await deps.coupons.redeem({ ...row, purchaseId: row.id });
    } catch (err) {
      await db
        .update(purchases)
        .set({ status: "CANCELLED" })
        .where(and(eq(purchases.id, row.id), eq(purchases.status, "PENDING")));
      throw err;
    }
  }

  /** Closes a purchase still pending, unpaid; a coupon use it took (its capture failed) is given back. */
  async function close(id: string): Promise<boolean> {
    return db.transaction(async (tx) => {
      const [closed] = await tx
        .update(purchases)
        .set({ status: "CANCELLED" })
        .where(and(eq(purchases.id, id), eq(purchases.status, "PENDING")))
        .returning({ id: purchases.id });
      if (closed) await deps.coupons.release({ purchaseId: id }, tx);
      return closed !== undefined;
    });
  }

  /** Reads the order at its provider, captures it when approved, and applies what it says. */
  async function complete(id: string): Promise<Purchase> {
    const row = await load(id);
    if (row.status !== "PENDING") return presentOne(row);
    const provider = providers.byName(row.provider);
    if (!provider) throw conflict("This purchase's payment provider is not configured here");
    let order = await provider.getOrder(row.providerOrderId);
    let step = nextPurchaseStep(row.status, order);
    if (step.kind === "capture") {
      // the coupon's use is taken when the money is, never past its last use
      if (row.couponId) await takeCouponUse({ ...row, couponId: row.couponId });
      order = await provider.captureOrder(row.providerOrderId, row.id);
      step = nextPurchaseStep(row.status, order);
    }
    if (step.kind === "pay") await record(row, step.capture, order.payerCountry);
    else if (step.kind === "cancel") await close(id);
    return presentOne(await load(id));
  }

  /** The courses a learner bought and still holds (paid, not refunded). */
  async function coursesOf(userId: string, tx: DbOrTx = db): Promise<string[]> {
    const rows = await tx
      .select({ courseIds: purchases.courseIds })
      .from(purchases)
      .where(and(eq(purchases.userId, userId), eq(purchases.status, "PAID")));
    return [...new Set(rows.flatMap((r) => r.courseIds))];
  }

  async function list(where: SQL | undefined, query: { page: number; pageSize: number }) {
    const { rows, pagination } = await paginate(
      query,
      db.select().from(purchases).where(where).orderBy(desc(purchases.createdAt)).$dynamic(),
      db.select({ n: count() }).from(purchases).where(where),
    );
    return { purchases: await present(rows), pagination };
  }

  return {
    complete,
    coursesOf,

    /** Starts a purchase: the provider's order first (nothing is written if it fails), then our row. */
    async start(principal: Principal, body: StartPurchaseBody) {
      const plan = await deps.plans.get(body.plan_id).catch(() => {
        throw validationFailed({ plan_id: ["Unknown plan"] });
      });
      if (!plan.active) throw notForSale("This offer is not sold any more");
      if (!soldOnce(plan)) throw notForSale("This plan is a subscription, not a course sold once");
      checkCheckoutProvider(providers, body.provider);
      const owned = new Set(await coursesOf(principal.id));
      if (plan.courseIds.every((c) => owned.has(c)))
        throw conflict("You already own every course of this offer", "ALREADY_OWNED");
      const quote = body.coupon ? await deps.coupons.quote(body.coupon, plan) : null;
      const amount = quote?.amount ?? plan.amount;

      const id = randomUUID();
      const prefix = langPrefix(body.locale ?? "fr");
      const order = await countedCheckout(
        providers.active.name,
        providers.active.createOrder({
          purchaseId: id,
          amountCents: amount,
          currency: plan.currency,
          description: plan.name,
          returnUrl: `${deps.publicUrl}${prefix}/billing/purchase-payment?purchase=${id}`,
          cancelUrl: `${deps.publicUrl}${prefix}/pricing?checkout=cancelled`,
          locale: providerLocale(body.locale),
        }),
        deps.onPaymentEvent,
      );
      const [row] = await db
        .insert(purchases)
        .values({
          id,
          userId: principal.id,
          planId: plan.id,
          courseIds: plan.courseIds,
          provider: providers.active.name,
          providerOrderId: order.id,
          listAmount: plan.amount,
          amount,
          couponId: quote?.coupon.id ?? null,
          couponCode: quote?.coupon.code ?? null,
          currency: plan.currency,
          buyerCountry: body.country ?? null,
        })
        .returning();
      if (!row) throw new Error("purchase insert returned nothing");
      const approveUrl = order.approveUrl.startsWith("/") ? `${prefix}${order.approveUrl}` : order.approveUrl;
      return { purchase: await presentOne(row), approveUrl };
    },

    async get(id: string): Promise<Purchase> {
      return presentOne(await load(id));
    },

    /** The demo checkout: the buyer approves (then the purchase is captured) or declines. */
    async demoDecide(id: string, decision: "approve" | "decline"): Promise<Purchase> {
      const row = await load(id);
      const demo = providers.demo;
      if (!demo || row.provider !== "demo") throw badRequest("This purchase is not a demo checkout");
      if (row.status !== "PENDING") throw conflict("This purchase is already decided", "PURCHASE_CLOSED");
      const price = { amount: row.amount, currency: row.currency };
      if (decision === "approve") await demo.approveOrder(row.providerOrderId, row.id, price);
      else await demo.declineOrder(row.providerOrderId, row.id, price);
      return complete(id);
    },

    /**
     * Staff refund a paid purchase whole: the provider first (PayPal's refund of the capture, keyed
     * by the purchase so a retry refunds once), then the purchase closes its courses and a credit
     * note is issued, in one transaction. A purchase already refunded answers as it is.
     */
    async refund(id: string): Promise<Purchase> {
      const row = await load(id);
      if (row.status === "REFUNDED") return presentOne(row);
      if (row.status !== "PAID" || !row.providerCaptureId)
        throw conflict(`Only a paid purchase can be refunded (this one is ${row.status})`, "NOT_REFUNDABLE");
      const provider = providers.byName(row.provider);
      if (!provider) throw conflict("This purchase's payment provider is not configured here");
      await provider.refundCapture(row.providerCaptureId, row.id);
      const now = new Date();
      const moved = await db.transaction(async (tx) => {
        const [done] = await tx
          .update(purchases)
          .set({ status: "REFUNDED", refundedAt: now })
          .where(and(eq(purchases.id, id), eq(purchases.status, "PAID")))
          .returning({ id: purchases.id });
        if (!done) return false;
        const [payment] = await tx
          .select({ id: payments.id })
          .from(payments)
          .where(eq(payments.purchaseId, id));
        if (payment) await deps.receipts.creditNote(payment.id, now, tx);
        return true;
      });
      if (moved) deps.changes?.publish(`user:${row.userId}`);
      return presentOne(await load(id));
    },

    /** A learner's purchases, newest first. */
    mine: (userId: string, query: { page: number; pageSize: number; status?: PurchaseStatus | undefined }) =>
      list(
        and(eq(purchases.userId, userId), query.status ? eq(purchases.status, query.status) : undefined),
        query,
      ),

    /** Every learner's purchases, for staff. */
    all: (query: { page: number; pageSize: number; status?: PurchaseStatus | undefined }) =>
      list(query.status ? eq(purchases.status, query.status) : undefined, query),

    /**
     * Purchases pending past the approval window (checkout-sweep): each order re-read (one
     * approved meanwhile is captured), else the purchase closes unpaid and gives back any coupon use.
     */
    async expireStale(now = new Date()): Promise<{ expired: number; paid: number; failed: number }> {
      const stale = await db
        .select({ id: purchases.id })
        .from(purchases)
        .where(
          and(
            eq(purchases.status, "PENDING"),
            lt(purchases.createdAt, new Date(now.getTime() - CHECKOUT_EXPIRY_MS)),
          ),
        );
      const counts = { expired: 0, paid: 0, failed: 0 };
      for (const { id } of stale) {
        try {
          const read = await complete(id);
          if (read.status === "PAID") counts.paid += 1;
          else if (read.status !== "PENDING" || (await close(id))) counts.expired += 1;
        } catch (err) {
          counts.failed += 1;
          log.warn({ err, purchaseId: id }, "stale purchase sweep failed");
        }
      }
      return counts;
    },

    /** The purchase of a provider's order (webhooks), or null. */
    async byOrder(provider: string, orderId: string): Promise<string | null> {
      const [row] = await db
        .select({ id: purchases.id })
        .from(purchases)
        .where(and(eq(purchases.provider, provider), eq(purchases.providerOrderId, orderId)));
      return row?.id ?? null;
    },

    /** The learner a purchase belongs to (null: no such purchase), for the access policy. */
    async buyerOf(id: string): Promise<string | null> {
      const [row] = await db.select({ userId: purchases.userId }).from(purchases).where(eq(purchases.id, id));
      return row?.userId ?? null;
    },
  };
}

export type PurchaseService = ReturnType<typeof createPurchaseService>;
