import {
  SALES_LIST_LIMIT,
  type SalesOrder,
  type SalesRefund,
  type SalesReport,
  type SalesReportQuery,
  type SalesTable,
} from "@parlons/contract";
import { stringify } from "csv-stringify/sync";
import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../db/client";
import {
  couponRedemptions,
  coupons,
  customerPlans,
  payments,
  purchases,
  receipts,
} from "../../db/schema/billing";
import { planFacts } from "../plans/queries";
import { trialsOf } from "./sales-trials";

/** Course titles by id, from the courses module (a course deleted since: no title). */
type CourseTitles = (ids: string[]) => Promise<Map<string, { titleFr: string; titleEn: string }>>;

interface Line {
  paymentId: string;
  item: "subscription" | "course";
  planId: string | null;
  planName: string;
  planNameFr: string;
  courseIds: string[];
  amount: number;
  currency: string;
}

/** A UTC day's first instant, and the instant after the period's last day. */
const bounds = (q: SalesReportQuery) => ({
  start: new Date(`${q.from}T00:00:00.000Z`),
  end: new Date(Date.parse(`${q.to}T00:00:00.000Z`) + 86_400_000),
});

/** `amount` shared between `n` courses: even shares, the odd cents to the first. */
function shares(amount: number, n: number): number[] {
  const each = Math.trunc(amount / n);
  return Array.from({ length: n }, (_, i) => (i === 0 ? amount - each * (n - 1) : each));
}

const money = (cents: number) => (cents / 100).toFixed(2);

/**
 * The staff's view of sales (issue 28, part 6) over whole UTC days: the payments taken (orders:
 * subscriptions' payments and courses bought once) and the refunds made (credit notes issued) in
 * the period, revenue by currency, by offer and by course bought once (refunds netted in the
 * period they were made), and the coupons used. Read from the accounting records: payments,
 * receipts and credit notes (their names and amounts as issued), coupon redemptions; and the
 * trials started in the period (sales-trials.ts), which take no money.
 */
export function createSalesService(deps: { db: Db }) {
  const { db } = deps;
  const original = alias(receipts, "original");

  /** The item a payment paid: its offer and courses (a purchase's, copied when bought) and its kind. */
  const itemColumns = {
    item: sql<
      "subscription" | "course"
    >`case when ${payments.purchaseId} is null then 'subscription' else 'course' end`,
    planId: sql<string | null>`coalesce(${purchases.planId}, ${customerPlans.planId})`,
    courseIds: purchases.courseIds,
    // names as the invoice printed them
    planName: receipts.planNameEn,
    planNameFr: receipts.planNameFr,
    buyerEmail: receipts.buyerEmail,
  };

  async function orders(q: SalesReportQuery) {
    const { start, end } = bounds(q);
    const credit = alias(receipts, "credit");
    return (
      db
        .select({
          paymentId: payments.id,
          paidAt: payments.paidAt,
          amount: payments.amount,
          currency: payments.currency,
          provider: payments.provider,
          ...itemColumns,
          listAmount: receipts.listAmount,
          couponCode: receipts.couponCode,
          receiptNumber: receipts.number,
          creditNoteNumber: credit.number,
        })
        .from(payments)
        .leftJoin(customerPlans, eq(customerPlans.id, payments.customerPlanId))
        .leftJoin(purchases, eq(purchases.id, payments.purchaseId))
        .leftJoin(receipts, and(eq(receipts.paymentId, payments.id), eq(receipts.kind, "receipt")))
        .leftJoin(credit, and(eq(credit.paymentId, payments.id), eq(credit.kind, "credit_note")))
        // a duplicate subscription's payment (REFUND_DUE) was never a sale
        .where(and(eq(payments.status, "PAID"), gte(payments.paidAt, start), lt(payments.paidAt, end)))
        .orderBy(desc(payments.paidAt), desc(payments.id))
    );
  }

  async function refunds(q: SalesReportQuery) {
    const { start, end } = bounds(q);
    return db
      .select({
        paymentId: receipts.paymentId,
        creditNoteNumber: receipts.number,
        issuedAt: receipts.issuedAt,
        receiptNumber: original.number,
        amount: receipts.amount,
        currency: receipts.currency,
        ...itemColumns,
      })
      .from(receipts)
      .innerJoin(payments, eq(payments.id, receipts.paymentId))
      .leftJoin(customerPlans, eq(customerPlans.id, payments.customerPlanId))
      .leftJoin(purchases, eq(purchases.id, payments.purchaseId))
      .leftJoin(original, eq(original.id, receipts.creditOf))
      .where(and(eq(receipts.kind, "credit_note"), gte(receipts.issuedAt, start), lt(receipts.issuedAt, end)))
      .orderBy(desc(receipts.issuedAt), desc(receipts.number));
  }

  async function couponUses(q: SalesReportQuery) {
    const { start, end } = bounds(q);
    const plan = planFacts(db);
    // a redemption's currency: its offer's (the discount is in cents of it)
    const currency = sql<string>`coalesce(${plan.currency}, ${coupons.currency}, '')`;
    return db
      .select({
        code: coupons.code,
        currency,
        uses: sql<number>`count(*)::int`,
        discount: sql<number>`coalesce(sum(${couponRedemptions.amountOff}), 0)::int`,
      })
      .from(couponRedemptions)
      .innerJoin(coupons, eq(coupons.id, couponRedemptions.couponId))
      .leftJoin(purchases, eq(purchases.id, couponRedemptions.purchaseId))
      .leftJoin(customerPlans, eq(customerPlans.id, couponRedemptions.customerPlanId))
      .leftJoin(plan, sql`${plan.id} = coalesce(${purchases.planId}, ${customerPlans.planId})`)
      .where(and(gte(couponRedemptions.createdAt, start), lt(couponRedemptions.createdAt, end)))
      .groupBy(coupons.code, currency)
      .orderBy(coupons.code);
  }

  type OrderRow = Awaited<ReturnType<typeof orders>>[number];
  type RefundRow = Awaited<ReturnType<typeof refunds>>[number];

  const lineOf = (r: OrderRow | RefundRow): Line => ({
    paymentId: r.paymentId,
    item: r.item,
    planId: r.planId,
    planName: r.planName ?? "",
    planNameFr: r.planNameFr ?? "",
    courseIds: r.courseIds ?? [],
    amount: r.amount,
    currency: r.currency,
  });

  /** What an order or a refund paid for, whom, how much. */
  const presentLine = (r: OrderRow | RefundRow) => ({
    item: r.item,
    plan_id: r.planId,
    plan_name: r.planName ?? "",
    plan_name_fr: r.planNameFr ?? "",
    buyer_email: r.buyerEmail ?? "",
    amount: r.amount,
    currency: r.currency,
  });

  const presentOrder = (r: OrderRow): SalesOrder => ({
    payment_id: r.paymentId,
    paid_at: r.paidAt.toISOString(),
    ...presentLine(r),
    list_amount: r.listAmount,
    coupon_code: r.couponCode,
    receipt_number: r.receiptNumber,
    provider: r.provider,
    credit_note_number: r.creditNoteNumber,
  });

  const presentRefund = (r: RefundRow): SalesRefund => ({
    credit_note_number: r.creditNoteNumber,
    issued_at: r.issuedAt.toISOString(),
    receipt_number: r.receiptNumber,
    ...presentLine(r),
  });

  /** Adds paid lines and refunded lines into rows keyed by `keysOf` (one line may count for several keys). */
  function sum<K extends string>(
    paid: Line[],
    refunded: Line[],
    keysOf: (line: Line) => { key: K; amount: number }[],
  ) {
    const rows = new Map<
      K,
      { line: Line; payments: number; refunds: number; gross: number; refunded: number }
    >();
    const add = (line: Line, refund: boolean) => {
      for (const { key, amount } of keysOf(line)) {
        const row = rows.get(key) ?? { line, payments: 0, refunds: 0, gross: 0, refunded: 0 };
        if (refund) {
          row.refunds += 1;
          row.refunded += amount;
        } else {
          row.payments += 1;
          row.gross += amount;
        }
        rows.set(key, row);
      }
    };
    for (const line of paid) add(line, false);
    for (const line of refunded) add(line, true);
    return [...rows.entries()].map(([key, r]) => ({ key, ...r, net: r.gross - r.refunded }));
  }

  async function report(q: SalesReportQuery, titles: CourseTitles): Promise<SalesReport> {
    const [orderRows, refundRows, coupon_uses, trials] = await Promise.all([
      orders(q),
      refunds(q),
      couponUses(q),
      trialsOf(db, q),
    ]);
    const paid = orderRows.map(lineOf);
    const refunded = refundRows.map(lineOf);
    const totals = sum(paid, refunded, (l) => [{ key: l.currency, amount: l.amount }]);
    const byPlan = sum(paid, refunded, (l) => [
      { key: `${l.planId ?? l.planName}|${l.item}|${l.currency}`, amount: l.amount },
    ]);
    const byCourse = sum(paid, refunded, (l) => {
      const split = shares(l.amount, l.courseIds.length || 1);
      return l.item === "course"
        ? l.courseIds.map((id, i) => ({ key: `${id}|${l.currency}`, amount: split[i] ?? 0 }))
        : [];
    });
    const named = await titles([...new Set(byCourse.map((r) => r.key.split("|")[0] ?? ""))]);
    const byAmount = (a: { net: number }, b: { net: number }) => b.net - a.net;
    return {
      from: q.from,
      to: q.to,
      totals: totals
        .map((r) => ({
          currency: r.key,
          payments: r.payments,
          refunds: r.refunds,
          gross: r.gross,
          refunded: r.refunded,
          net: r.net,
        }))
        .sort((a, b) => a.currency.localeCompare(b.currency)),
      by_plan: byPlan
        .map((r) => ({
          plan_id: r.line.planId,
          plan_name: r.line.planName,
          plan_name_fr: r.line.planNameFr,
          item: r.line.item,
          currency: r.line.currency,
          payments: r.payments,
          refunds: r.refunds,
          gross: r.gross,
          refunded: r.refunded,
          net: r.net,
        }))
        .sort(byAmount),
      by_course: byCourse
        .map((r) => {
          const id = r.key.split("|")[0] ?? "";
          return {
            course_id: id,
            title_fr: named.get(id)?.titleFr ?? "",
            title_en: named.get(id)?.titleEn ?? "",
            currency: r.line.currency,
            sales: r.payments,
            refunds: r.refunds,
            gross: r.gross,
            refunded: r.refunded,
            net: r.net,
          };
        })
        .sort(byAmount),
      coupon_uses,
      orders: orderRows.slice(0, SALES_LIST_LIMIT).map(presentOrder),
      orders_total: orderRows.length,
      refunds: refundRows.slice(0, SALES_LIST_LIMIT).map(presentRefund),
      refunds_total: refundRows.length,
      ...trials.report,
    };
  }

  /** One table of the report as CSV (RFC 4180, a header line, amounts in units of their currency, every row). */
  async function csv(q: SalesReportQuery & { table: SalesTable }, titles: CourseTitles): Promise<string> {
    const out = (columns: string[], rows: (string | number | null)[][]) =>
      stringify(rows, { header: true, columns, record_delimiter: "\r\n" });
    const revenue = ["currency", "gross", "refunded", "net"];
    const amounts = (r: { currency: string; gross: number; refunded: number; net: number }) => [
      r.currency,
      money(r.gross),
      money(r.refunded),
      money(r.net),
    ];
    if (q.table === "orders") {
      const rows = (await orders(q)).map(presentOrder);
      return out(
        [
          "paid_at",
          "receipt",
          "item",
          "offer",
          "buyer",
          "amount",
          "list_amount",
          "currency",
          "coupon",
          "provider",
          "credit_note",
        ],
        rows.map((o) => [
          o.paid_at,
          o.receipt_number,
          o.item,
          o.plan_name,
          o.buyer_email,
          money(o.amount),
          o.list_amount === null ? null : money(o.list_amount),
          o.currency,
          o.coupon_code,
          o.provider,
          o.credit_note_number,
        ]),
      );
    }
    if (q.table === "refunds") {
      const rows = (await refunds(q)).map(presentRefund);
      return out(
        ["issued_at", "credit_note", "receipt", "item", "offer", "buyer", "amount", "currency"],
        rows.map((r) => [
          r.issued_at,
          r.credit_note_number,
          r.receipt_number,
          r.item,
          r.plan_name,
          r.buyer_email,
          money(r.amount),
          r.currency,
        ]),
      );
    }
    if (q.table === "trials") {
      const { all } = await trialsOf(db, q);
      return out(
        ["started_at", "ends_at", "days", "offer", "buyer", "outcome", "coupon"],
        all.map((r) => [
          r.started_at,
          r.ends_at,
          r.trial_days,
          r.plan_name,
          r.buyer_email,
          r.outcome,
          r.coupon_code,
        ]),
      );
    }
    if (q.table === "coupons") {
      const rows = await couponUses(q);
      return out(
        ["code", "uses", "discount", "currency"],
        rows.map((c) => [c.code, c.uses, money(c.discount), c.currency]),
      );
    }
    const full = await report(q, titles);
    if (q.table === "plans")
      return out(
        ["offer", "item", "payments", "refunds", ...revenue],
        full.by_plan.map((p) => [p.plan_name, p.item, p.payments, p.refunds, ...amounts(p)]),
      );
    return out(
      ["course", "sales", "refunds", ...revenue],
      full.by_course.map((c) => [c.title_en || c.course_id, c.sales, c.refunds, ...amounts(c)]),
    );
  }

  return { report, csv };
}

export type SalesService = ReturnType<typeof createSalesService>;
