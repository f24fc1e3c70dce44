import type { Coupon, CreateCouponBody } from "@parlons/contract";
import { and, count, desc, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { paginate } from "../../db/paginate";
import { couponRedemptions, coupons } from "../../db/schema/billing";
import { AppError, conflict, isUniqueViolation, notFound, validationFailed } from "../../lib/errors";
import type { PlanRow, PlanService } from "../plans/service";

type CouponRow = typeof coupons.$inferSelect;

const refused = (
  status: 409 | 422,
  code: "COUPON_INVALID" | "COUPON_EXPIRED" | "COUPON_USED_UP" | "COUPON_NOT_APPLICABLE",
  message: string,
) => new AppError(status, code, message, { coupon: [message] });

function present(row: CouponRow): Coupon {
  return {
    id: row.id,
    code: row.code,
    percent_off: row.percentOff,
    amount_off: row.amountOff,
    currency: row.currency,
    plan_ids: row.planIds,
    duration: row.duration,
    ends_at: row.endsAt?.toISOString() ?? null,
    max_uses: row.maxUses,
    uses: row.uses,
    active: row.active,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * Discount codes (issue 28, part 4): a percentage or an amount off the offers a coupon names, until
 * its end, at most its number of uses. A use is taken when the money is: just before the capture,
 * by one conditional update (`uses < max_uses` in its WHERE) in the same transaction as the
 * redemption row that keys it to the purchase. Concurrent learners queue on the coupon's row and
 * each re-reads `uses` once it holds the lock, so the last use goes to exactly one of them; a
 * purchase whose capture is replayed finds its redemption and takes no second use.
 */
export function createCouponService(deps: { db: Db; plans: Pick<PlanService, "get"> }) {
  const { db } = deps;

  async function load(id: string): Promise<CouponRow> {
    const [row] = await db.select().from(coupons).where(eq(coupons.id, id));
    if (!row) throw notFound("Coupon");
    return row;
  }

  async function checkPlans(planIds: string[]) {
    for (const id of planIds)
      await deps.plans.get(id).catch(() => {
        throw validationFailed({ plan_ids: [`Unknown plan ${id}`] });
      });
  }

  const values = (body: CreateCouponBody) => ({
    code: body.code,
    percentOff: body.percent_off,
    amountOff: body.amount_off,
    currency: body.amount_off === null ? null : body.currency,
    planIds: [...new Set(body.plan_ids)],
    duration: body.duration,
    endsAt: body.ends_at ? new Date(body.ends_at) : null,
    maxUses: body.max_uses,
    active: body.active,
  });

  const taken = (err: unknown) => {
    if (isUniqueViolation(err)) throw conflict("Another coupon has this code", "COUPON_CODE_TAKEN");
    throw err;
  };

  return {
    async list(query: { page: number; pageSize: number }) {
      const { rows, pagination } = await paginate(
        query,
        db.select().from(coupons).orderBy(desc(coupons.createdAt)).$dynamic(),
        db.select({ n: count() }).from(coupons),
      );
      return { coupons: rows.map(present), pagination };
    },

    async create(body: CreateCouponBody): Promise<Coupon> {
      await checkPlans(body.plan_ids);
      const [row] = await db.insert(coupons).values(values(body)).returning().catch(taken);
      if (!row) throw new Error("coupon insert returned nothing");
      return present(row);
    },

    async update(id: string, body: CreateCouponBody): Promise<Coupon> {
      const current = await load(id);
      await checkPlans(body.plan_ids);
      if (body.code !== current.code && current.uses > 0)
        throw validationFailed({ code: ["A coupon already used keeps its code (receipts name it)"] });
      if (body.max_uses !== null && body.max_uses < current.uses)
        throw validationFailed({ max_uses: [`It was already used ${current.uses} times`] });
      const [row] = await db
        .update(coupons)
        .set(values(body))
        .where(eq(coupons.id, id))
        .returning()
        .catch(taken);
      if (!row) throw notFound("Coupon");
      return present(row);
    },

    /** Deletes a coupon never used; one used is deactivated (its uses and receipts stay). */
    async remove(id: string): Promise<{ deleted: boolean; coupon: Coupon }> {
      const current = await load(id);
      if (current.uses > 0) {
        const [row] = await db.update(coupons).set({ active: false }).where(eq(coupons.id, id)).returning();
        return { deleted: false, coupon: present(row ?? current) };
      }
      await db.delete(coupons).where(eq(coupons.id, id));
      return { deleted: true, coupon: present(current) };
    },

    /**
     * What `plan` costs with the code: refused when unknown or inactive, ended, used up, not for
     * this offer, in another currency, or when it would make a paid offer free.
     */
    async quote(code: string, plan: PlanRow, now = new Date()) {
      const [row] = await db.select().from(coupons).where(eq(coupons.code, code.toUpperCase()));
      if (!row?.active) throw refused(422, "COUPON_INVALID", "No such coupon");
      if (row.endsAt && row.endsAt <= now) throw refused(422, "COUPON_EXPIRED", "This coupon has ended");
      if (row.maxUses !== null && row.uses >= row.maxUses)
        throw refused(409, "COUPON_USED_UP", "This coupon has been used as many times as it may");
      if (row.planIds.length > 0 && !row.planIds.includes(plan.id))
        throw refused(422, "COUPON_NOT_APPLICABLE", "This coupon is not for this offer");
      if (row.amountOff !== null && row.currency !== plan.currency)
        throw refused(422, "COUPON_NOT_APPLICABLE", "This coupon is in another currency");
      const discount =
        row.percentOff !== null ? Math.round((plan.amount * row.percentOff) / 100) : (row.amountOff ?? 0);
      const amount = plan.amount - discount;
      if (amount < 1) throw refused(422, "COUPON_NOT_APPLICABLE", "A coupon cannot make a paid offer free");
      return { coupon: row, listAmount: plan.amount, discount, amount, currency: plan.currency };
    },

    /**
     * Takes one use of the coupon for a purchase or a subscription, once: a second call for the
     * same one finds its redemption. Throws COUPON_USED_UP when none is left (or the coupon ended);
     * nothing is written then. `amount` is what the discounted payment costs.
     */
    async redeem(
      use: { userId: string; couponId: string; listAmount: number; amount: number } & (
        | { purchaseId: string; customerPlanId?: never }
        | { customerPlanId: string; purchaseId?: never }
      ),
      now = new Date(),
      tx?: DbOrTx,
    ): Promise<void> {
      const work = async (t: DbOrTx) => {
        const [mine] = await t
          .insert(couponRedemptions)
          .values({
            couponId: use.couponId,
            userId: use.userId,
            purchaseId: use.purchaseId ?? null,
            customerPlanId: use.customerPlanId ?? null,
            amountOff: use.listAmount - use.amount,
          })
          .onConflictDoNothing()
          .returning({ id: couponRedemptions.id });
        if (!mine) return;
        const [used] = await t
          .update(coupons)
          .set({ uses: sql`${coupons.uses} + 1` })
          .where(
            and(
              eq(coupons.id, use.couponId),
              or(isNull(coupons.maxUses), lt(coupons.uses, coupons.maxUses)),
              or(isNull(coupons.endsAt), gt(coupons.endsAt, now)),
            ),
          )
          .returning({ id: coupons.id });
        if (!used)
          throw refused(409, "COUPON_USED_UP", "This coupon was used up or ended before your payment");
      };
      await (tx ? work(tx) : db.transaction(work));
    },

    /**
     * Gives back the use a checkout took when it closed without ever being paid (the learner
     * declined it, or it expired pending): the redemption goes, and with it one use. Called in the
     * transaction that closed the checkout, so a use is given back once however many paths close it.
     */
    async release(of: { customerPlanId: string } | { purchaseId: string }, tx: DbOrTx): Promise<void> {
      const [gone] = await tx
        .delete(couponRedemptions)
        .where(
          "purchaseId" in of
            ? eq(couponRedemptions.purchaseId, of.purchaseId)
            : eq(couponRedemptions.customerPlanId, of.customerPlanId),
        )
        .returning({ couponId: couponRedemptions.couponId });
      if (!gone) return;
      await tx
        .update(coupons)
        .set({ uses: sql`${coupons.uses} - 1` })
        .where(and(eq(coupons.id, gone.couponId), gt(coupons.uses, 0)));
    },
  };
}

export type CouponService = ReturnType<typeof createCouponService>;
