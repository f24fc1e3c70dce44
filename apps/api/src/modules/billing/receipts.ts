import {
  invoiceCountry,
  invoiceVat,
  langPrefix,
  pickText,
  type Receipt,
  splitVat,
  toLocale,
  vatRateFor,
} from "@parlons/contract";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { type payments, receiptCounters, receipts } from "../../db/schema/billing";
import { notFound } from "../../lib/errors";
import { formatDate, formatMoney, formatRate } from "../../lib/format";
import type { MailOutbox } from "../mail/outbox";
import type { TransactionalMails } from "../mail/transactional";
import type { PlanService } from "../plans/service";
import type { SettingsService } from "../settings/service";
import type { UserService } from "../users/service";
import { type ReceiptLang, receiptTexts } from "./receipt-texts";

type ReceiptRow = typeof receipts.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;

/** `R-2026-000042`: the year of the payment and its place in that year's sequence. */
export const receiptNumber = (year: number, seq: number) => `R-${year}-${String(seq).padStart(6, "0")}`;

function presentReceipt(row: ReceiptRow, creditOf: { id: string; number: string } | null): Receipt {
  return {
    id: row.id,
    number: row.number,
    payment_id: row.paymentId,
    issued_at: row.issuedAt.toISOString(),
    kind: row.kind,
    credit_of: creditOf,
    item: row.item,
    status: row.status,
    lang: row.lang,
    buyer: { name: row.buyerName, email: row.buyerEmail, country: row.buyerCountry },
    plan_name: row.planNameEn,
    plan_name_fr: row.planNameFr,
    amount: row.amount,
    vat: { rate: row.vatRate, amount: row.vatAmount, net: row.amount - row.vatAmount, note: row.vatNote },
    list_amount: row.listAmount,
    coupon_code: row.couponCode,
    currency: row.currency,
    provider: row.provider,
    seller: {
      name: row.seller.name,
      address: row.seller.address,
      tax_id: row.seller.tax_id,
      email: row.seller.email,
      country: row.seller.country ?? "",
      vat_number: row.seller.vat_number ?? "",
    },
  };
}

/**
 * The receipt's lines in its mail: number and date, then the invoice's VAT as on its page and PDF
 * (the total without VAT, the rate and the VAT, the total paid), or the amount and the mention
 * saying why there is no VAT (the franchise, a consumer outside the EU).
 */
function mailDetails(row: ReceiptRow, lang: ReceiptLang): string {
  const words = receiptTexts[lang];
  const money = (cents: number) => formatMoney(cents, row.currency, lang);
  const line = (label: string, value: string) => `${label}${words.sep}${value}`;
  const vat = invoiceVat(presentReceipt(row, null));
  const lines = [line(words.number, row.number), line(words.date, formatDate(row.issuedAt, lang))];
  if (vat && vat.note === null)
    lines.push(
      line(words.netTotal, money(vat.net)),
      line(words.vatLine(formatRate(vat.rate, lang)), money(vat.vat)),
      line(words.total, money(row.amount)),
    );
  else lines.push(line(words.amount, money(row.amount)));
  if (vat?.note) lines.push(vat.note === "exempt" ? words.vatExempt : words.vatOutsideEu);
  return lines.join("\n");
}

/**
 * Receipts: one per payment, issued in the payment's own transaction. The number comes from an
 * upsert on the year's counter row (`receipt_counters`): concurrent payments wait on that row lock
 * in turn, and a payment that rolls back takes its number back with it, so a year's numbers run
 * 1, 2, 3… with no gap and no duplicate. The mail is queued in the same transaction.
 */
export function createReceiptService(deps: {
  db: Db;
  users: Pick<UserService, "findById">;
  plans: Pick<PlanService, "get">;
  settings: Pick<SettingsService, "current">;
  outbox: Pick<MailOutbox, "enqueue">;
  mails: TransactionalMails;
  publicUrl: string;
}) {
  const { db } = deps;

  async function nextSeq(year: number, tx: DbOrTx): Promise<number> {
    const [row] = await tx
      .insert(receiptCounters)
      .values({ year, last: 1 })
      .onConflictDoUpdate({ target: receiptCounters.year, set: { last: sql`${receiptCounters.last} + 1` } })
      .returning({ last: receiptCounters.last });
    if (!row) throw new Error("receipt counter upsert returned nothing");
    return row.last;
  }

  const pageUrl = (row: Pick<ReceiptRow, "id" | "lang">) =>
    `${deps.publicUrl}${langPrefix(toLocale(row.lang))}/billing/receipts/${row.id}`;

  return {
    /**
     * Issues the receipt of a payment just inserted in `tx` and queues its mail. `item`: what the
     * plan was bought as, a subscription or a course bought once (an offer of interval "once").
     */
    async issue(
      payment: PaymentRow,
      planId: string,
      tx: DbOrTx,
      item: ReceiptRow["item"] = "subscription",
      extra: {
        coupon?: { listAmount: number; code: string } | undefined;
        /** The country the buyer declared at checkout, and the payer's country the provider reported. */
        declaredCountry?: string | null;
        paymentCountry?: string | null;
      } = {},
    ): Promise<ReceiptRow> {
      const { coupon } = extra;
      const [user, plan, setting] = await Promise.all([
        deps.users.findById(payment.userId, tx),
        deps.plans.get(planId, tx),
        deps.settings.current(tx),
      ]);
      if (!user) throw notFound("User");
      const buyerCountry = invoiceCountry(extra.declaredCountry ?? null, extra.paymentCountry);
      const vat = vatRateFor(setting.seller.vat_scheme, setting.seller.country, buyerCountry);
      const year = payment.paidAt.getUTCFullYear();
      const seq = await nextSeq(year, tx);
      const [row] = await tx
        .insert(receipts)
        .values({
          paymentId: payment.id,
          userId: payment.userId,
          year,
          seq,
          number: receiptNumber(year, seq),
          issuedAt: payment.paidAt,
          item,
          buyerName: user.fullName,
          buyerEmail: user.email,
          lang: user.speak,
          planNameFr: plan.nameFr,
          planNameEn: plan.name,
          amount: payment.amount,
          listAmount: coupon?.listAmount ?? null,
          couponCode: coupon?.code ?? null,
          currency: payment.currency,
          buyerCountry,
          vatRate: vat.rate,
          vatAmount: splitVat(payment.amount, vat.rate).vat,
          vatNote: vat.note,
          provider: payment.provider,
          seller: {
            name: setting.seller.name,
            address: setting.seller.address,
            tax_id: setting.seller.tax_id,
            email: setting.contact_email,
            country: setting.seller.country,
            vat_number: setting.seller.vat_number,
            vat_scheme: setting.seller.vat_scheme,
          },
        })
        .returning();
      if (!row) throw new Error("receipt insert returned nothing");
      const lang: ReceiptLang = toLocale(row.lang);
      const details = mailDetails(row, lang);
      const mail = await deps.mails.compose(
        "payment-receipt",
        { email: user.email, fullName: user.fullName, speak: user.speak },
        pageUrl(row),
        { details, planName: pickText({ fr: plan.nameFr, en: plan.name }, lang), tx },
      );
      await deps.outbox.enqueue({ key: `receipt:${row.id}`, userId: user.id, to: user.email, ...mail }, tx);
      return row;
    },

    /**
     * The credit note of a refunded payment, in `tx`: the receipt's lines copied, a number of the
     * same series (one unbroken series for every document), dated `at`. One per payment (unique
     * index): a second call returns the one issued.
     */
    async creditNote(paymentId: string, at: Date, tx: DbOrTx): Promise<ReceiptRow> {
      const [original] = await tx
        .select()
        .from(receipts)
        .where(and(eq(receipts.paymentId, paymentId), eq(receipts.kind, "receipt")));
      if (!original) throw notFound("Receipt");
      const [issued] = await tx
        .select()
        .from(receipts)
        .where(and(eq(receipts.paymentId, paymentId), eq(receipts.kind, "credit_note")));
      if (issued) return issued;
      const year = at.getUTCFullYear();
      const seq = await nextSeq(year, tx);
      const { id: _id, year: _y, seq: _s, number: _n, issuedAt: _i, ...copied } = original;
      const [row] = await tx
        .insert(receipts)
        .values({
          ...copied,
          year,
          seq,
          number: receiptNumber(year, seq),
          issuedAt: at,
          kind: "credit_note",
          creditOf: original.id,
          status: "REFUNDED",
        })
        .returning();
      if (!row) throw new Error("credit note insert returned nothing");
      return row;
    },

    async get(id: string): Promise<Receipt> {
      const [row] = await db.select().from(receipts).where(eq(receipts.id, id));
      if (!row) throw notFound("Receipt");
      const [original] = row.creditOf
        ? await db
            .select({ id: receipts.id, number: receipts.number })
            .from(receipts)
            .where(eq(receipts.id, row.creditOf))
        : [];
      return presentReceipt(row, original ?? null);
    },

    /** The learner a receipt belongs to (null: no such receipt, or its learner was erased), for the access policy. */
    async ownerOf(id: string): Promise<string | null> {
      const [row] = await db.select({ userId: receipts.userId }).from(receipts).where(eq(receipts.id, id));
      return row?.userId ?? null;
    },

    /** The receipts (or, with `kind`, the credit notes) of these payments, by payment id. */
    async ofPayments(
      paymentIds: string[],
      tx: DbOrTx = db,
      kind: ReceiptRow["kind"] = "receipt",
    ): Promise<Map<string, ReceiptRow>> {
      if (paymentIds.length === 0) return new Map();
      const rows = await tx
        .select()
        .from(receipts)
        .where(and(inArray(receipts.paymentId, paymentIds), eq(receipts.kind, kind)));
      return new Map(rows.map((r) => [r.paymentId, r]));
    },
  };
}

export type ReceiptService = ReturnType<typeof createReceiptService>;
