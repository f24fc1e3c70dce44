import { ACTIVE_LEARNER_DAYS, PERMISSIONS, ROLE_CUSTOMER, type StaffOverview } from "@parlons/contract";
import { and, count, eq, gte, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { customerPlans, payments, purchases } from "../../db/schema/billing";
import { listeningMinutes } from "../../db/schema/habit";
import { lessonProgress } from "../../db/schema/lessons";
import { plans } from "../../db/schema/plans";
import { reviewLogs } from "../../db/schema/review";
import { countNewHolders } from "../users/queries";
import { liveSubscriptions, mrrCents, utcDay } from "./rollup";

const DAY_MS = 86_400_000;

/** Monday 00:00 UTC of `now`'s week, and the 1st of its month. */
export function periodStarts(now: Date): { week: Date; month: Date } {
  const today = Date.parse(`${utcDay(now)}T00:00:00Z`);
  const week = new Date(today - ((now.getUTCDay() + 6) % 7) * DAY_MS);
  const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { week, month };
}

const first = async (rows: Promise<{ n: number }[]>) => Math.round(Number((await rows)[0]?.n ?? 0));

/**
 * The staff landing page's figures, counted live from the source tables (indexed ranges of a
 * month at most), each only for a caller who may open the page it links to.
 */
export async function staffOverview(
  db: Db,
  permissions: ReadonlySet<string>,
  now = new Date(),
): Promise<StaffOverview> {
  const { week, month } = periodStarts(now);
  const since = new Date(now.getTime() - ACTIVE_LEARNER_DAYS * DAY_MS);
  const learning = permissions.has(PERMISSIONS.analyticsRead);
  const people = permissions.has(PERMISSIONS.usersRead);
  const money = permissions.has(PERMISSIONS.customerPlansManage);
  const sum = (value: unknown) => sql<number>`coalesce(sum(${value}), 0)`.mapWith(Number);
  const [active, lessonsDone, newLearners, mrr, revenue] = await Promise.all([
    learning
      ? first(
          db.select({ n: count() }).from(sql`(
            select ${lessonProgress.userId} from ${lessonProgress} where ${lessonProgress.updatedAt} >= ${since}
            union
            select ${listeningMinutes.userId} from ${listeningMinutes} where ${listeningMinutes.minute} >= ${since}
            union
            select ${reviewLogs.userId} from ${reviewLogs} where ${reviewLogs.reviewedAt} >= ${since}
          ) as active`),
        )
      : null,
    learning
      ? first(
          db
            .select({ n: count() })
            .from(lessonProgress)
            .where(and(eq(lessonProgress.done, true), gte(lessonProgress.doneAt, week))),
        )
      : null,
    people ? countNewHolders(db, ROLE_CUSTOMER, month) : null,
    money
      ? first(
          db
            .select({ n: mrrCents.mapWith(Number) })
            .from(customerPlans)
            .innerJoin(plans, eq(plans.id, customerPlans.planId))
            .where(liveSubscriptions),
        )
      : null,
    money
      ? first(
          db
            .select({ n: sum(payments.amount) })
            .from(payments)
            .leftJoin(purchases, eq(purchases.id, payments.purchaseId))
            .where(
              and(
                eq(payments.status, "PAID"),
                gte(payments.paidAt, month),
                sql`${purchases.status} is distinct from 'REFUNDED'`,
              ),
            ),
        )
      : null,
  ]);
  return {
    active_learners: active,
    lessons_done_week: lessonsDone,
    new_learners_month: newLearners,
    mrr,
    revenue_month: revenue,
    currency: "EUR",
    week_start: utcDay(week),
    month_start: utcDay(month),
  };
}
