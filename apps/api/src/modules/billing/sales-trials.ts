import {
  SALES_LIST_LIMIT,
  type SalesReport,
  type SalesReportQuery,
  type SalesTrial,
} from "@parlons/contract";
import { and, desc, gte, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { customerPlans } from "../../db/schema/billing";
import { planFacts } from "../plans/queries";
import { userEmails } from "../users/queries";

const DAY = 86_400_000;

/**
 * The trials of the staff's sales report: subscriptions that started with free days in the
 * period (whole UTC days), whose they were, and how they came out: converted once a payment was
 * taken, running while active and unpaid, ended when closed unpaid (cancelled during the free days). A trial takes no money, so it
 * is no order: it is counted here only.
 */
export async function trialsOf(
  db: Db,
  q: SalesReportQuery,
): Promise<{ all: SalesTrial[]; report: Pick<SalesReport, "trials" | "trial_counts"> }> {
  const start = new Date(`${q.from}T00:00:00.000Z`);
  const end = new Date(Date.parse(`${q.to}T00:00:00.000Z`) + DAY);
  const plan = planFacts(db);
  const user = userEmails(db);
  const rows = await db
    .select({
      id: customerPlans.id,
      startedAt: customerPlans.startedAt,
      trialDays: customerPlans.trialDays,
      status: customerPlans.status,
      lastPaymentAt: customerPlans.lastPaymentAt,
      planId: customerPlans.planId,
      couponCode: customerPlans.couponCode,
      planName: plan.name,
      planNameFr: plan.nameFr,
      email: user.email,
    })
    .from(customerPlans)
    .leftJoin(plan, sql`${plan.id} = ${customerPlans.planId}`)
    .leftJoin(user, sql`${user.id} = ${customerPlans.userId}`)
    .where(
      and(
        isNotNull(customerPlans.trialDays),
        gte(customerPlans.startedAt, start),
        lt(customerPlans.startedAt, end),
      ),
    )
    .orderBy(desc(customerPlans.startedAt), desc(customerPlans.id));
  const all = rows.map((r): SalesTrial => {
    const started = r.startedAt ?? new Date(0);
    const days = r.trialDays ?? 0;
    return {
      customer_plan_id: r.id,
      started_at: started.toISOString(),
      ends_at: new Date(started.getTime() + days * DAY).toISOString(),
      trial_days: days,
      plan_id: r.planId,
      plan_name: r.planName ?? "",
      plan_name_fr: r.planNameFr ?? "",
      buyer_email: r.email ?? "",
      // cancelled during its free days, a trial will not convert: ended
      outcome: r.lastPaymentAt ? "converted" : r.status === "ACTIVE" ? "running" : "ended",
      coupon_code: r.couponCode,
    };
  });
  const count = (outcome: SalesTrial["outcome"]) => all.filter((t) => t.outcome === outcome).length;
  return {
    all,
    report: {
      trials: all.slice(0, SALES_LIST_LIMIT),
      trial_counts: {
        started: all.length,
        running: count("running"),
        converted: count("converted"),
        ended: count("ended"),
      },
    },
  };
}
