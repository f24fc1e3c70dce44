import { randomUUID } from "node:crypto";
import { langPrefix, type StartSubscriptionBody } from "@parlons/contract";
import { and, eq } from "drizzle-orm";
import { customerPlans, paypalIntroPlans } from "../../db/schema/billing";
import { AppError, conflict, validationFailed } from "../../lib/errors";
import type { PlanRow } from "../plans/service";
import type { Principal } from "../users/service";
import { checkCheckoutProvider, countedCheckout, providerLocale } from "./checkout";
import type { BillingDeps } from "./deps";
import { presentCustomerPlan } from "./present";
import type { createTrials } from "./trials";

/**
 * Starting a subscription (the billing service's `start`): the plan and coupon checked, the
 * learner's one trial claimed, the provider's subscription opened, then the customer plan and the
 * coupon's use written in one transaction.
 */
export function createStartSubscription(deps: BillingDeps, trials: ReturnType<typeof createTrials>) {
  const { db, providers } = deps;

  /**
   * The PayPal plan whose first paid cycle a coupon for the first payment prices (PayPal's plan
   * override prices only the cycles a plan has): the plan's intro plan, made on first need for its
   * price, after `trialDays` free days when the checkout starts with them.
   */
  async function introPlanIdOf(plan: PlanRow, trialDays: number): Promise<string | null> {
    if (providers.active.name !== "paypal" || plan.interval === "once") return null;
    const [kept] = await db
      .select()
      .from(paypalIntroPlans)
      .where(and(eq(paypalIntroPlans.planId, plan.id), eq(paypalIntroPlans.trialDays, trialDays)));
    if (
      kept &&
      kept.amount === plan.amount &&
      kept.currency === plan.currency &&
      kept.interval === plan.interval
    )
      return kept.paypalPlanId;
    // the plan's own PayPal product first, so that both plans sell the same product
    await deps.plans.providerPlanIdOf(plan);
    const current = await deps.plans.get(plan.id);
    const made = await providers.active.createBillingPlan({
      name: current.name,
      description: current.descriptionEn,
      amountCents: current.amount,
      currency: current.currency,
      interval: plan.interval,
      productId: current.paypalProductId,
      introCycle: true,
      ...(trialDays > 0 && { trialDays }),
    });
    if (!made) return null;
    const values = {
      paypalPlanId: made.planId,
      amount: current.amount,
      currency: current.currency,
      interval: plan.interval,
    };
    await db
      .insert(paypalIntroPlans)
      .values({ planId: plan.id, trialDays, ...values })
      .onConflictDoUpdate({
        target: [paypalIntroPlans.planId, paypalIntroPlans.trialDays],
        set: { ...values, createdAt: new Date() },
      });
    return made.planId;
  }

  /** Starts a subscription: the provider first (nothing is written if it fails), then our row. */
  return async function start(principal: Principal, body: StartSubscriptionBody) {
    const plan = await deps.plans.get(body.plan_id).catch(() => {
      throw validationFailed({ plan_id: ["Unknown plan"] });
    });
    if (!plan.active) throw validationFailed({ plan_id: ["This plan is not offered any more"] });
    if (plan.amount <= 0) throw validationFailed({ plan_id: ["The free plan needs no subscription"] });
    if (plan.interval === "once")
      throw new AppError(
        422,
        "NOT_FOR_SALE",
        "This offer is bought once (POST /v1/purchases), not subscribed to",
        {
          plan_id: ["This offer is bought once, not subscribed to"],
        },
      );
    checkCheckoutProvider(providers, body.provider);
    const [active] = await db
      .select({ id: customerPlans.id, planId: customerPlans.planId })
      .from(customerPlans)
      .where(and(eq(customerPlans.userId, principal.id), eq(customerPlans.status, "ACTIVE")))
      .limit(1);
    if (active?.planId === plan.id) throw conflict("You already have an active subscription to this plan");
    // a coupon is checked before anything starts; its use is taken with the customer plan below
    const quote = body.coupon ? await deps.coupons.quote(body.coupon, plan) : null;
    const discount = quote
      ? { amountCents: quote.amount, currency: quote.currency, duration: quote.coupon.duration }
      : undefined;

    const id = randomUUID();
    const prefix = langPrefix(body.locale ?? "fr");
    // the plan's free days for the learner's one trial only (claimed in the database); a coupon
    // on the first payment then discounts the first paid cycle, when the free days end
    const trial = plan.trialDays > 0 && (await trials.claim(principal.id, id));
    // the provider's subscription, then the customer plan; a failure gives the trial claim back
    const open = async () => {
      const providerPlanId =
        discount?.duration === "once"
          ? await introPlanIdOf(plan, trial ? plan.trialDays : 0)
          : await deps.plans.providerPlanIdOf(plan, trial);
      const made = await countedCheckout(
        providers.active.name,
        providers.active.createSubscription({
          customerPlanId: id,
          providerPlanId,
          returnUrl: `${deps.publicUrl}${prefix}/billing/subscription-payment?customer_plan=${id}`,
          cancelUrl: `${deps.publicUrl}${prefix}/pricing?checkout=cancelled`,
          locale: providerLocale(body.locale),
          ...(discount && { discount }),
          ...(trial && { trial }),
        }),
        deps.onPaymentEvent,
      );
      // the customer plan and its coupon's use in one transaction: when the last use went to
      // another learner, nothing is kept (the subscription at the provider is never approved)
      return db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(customerPlans)
          .values({
            id,
            userId: principal.id,
            planId: plan.id,
            status: "APPROVAL_PENDING",
            provider: providers.active.name,
            providerSubscriptionId: made.id,
            // what the learner holds now is what this checkout may replace; nothing else
            replacesId: active?.id ?? null,
            buyerCountry: body.country ?? null,
            trialDays: trial ? plan.trialDays : null,
            ...(quote && {
              couponId: quote.coupon.id,
              couponCode: quote.coupon.code,
              couponDuration: quote.coupon.duration,
              listAmount: quote.listAmount,
              discountedAmount: quote.amount,
            }),
          })
          .returning();
        if (!inserted) throw new Error("customer plan insert returned nothing");
        if (quote)
          await deps.coupons.redeem(
            {
              userId: principal.id,
              couponId: quote.coupon.id,
              listAmount: quote.listAmount,
              amount: quote.amount,
              customerPlanId: id,
            },
            new Date(),
            tx,
          );
        return { subscription: made, row: inserted };
      });
    };
    const { subscription, row } = await open().catch(async (error: unknown) => {
      if (trial) await trials.release(principal.id, id);
      throw error;
    });
    const approveUrl = subscription.approveUrl.startsWith("/")
      ? `${prefix}${subscription.approveUrl}`
      : subscription.approveUrl;
    return { customerPlan: presentCustomerPlan(row, plan), approveUrl };
  };
}
