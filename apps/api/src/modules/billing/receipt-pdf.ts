import { countryName, invoiceVat, pickText, type Receipt, type VatNote } from "@parlons/contract";
import { formatDate, formatMoney, formatRate } from "../../lib/format";
import { newPdf } from "../../lib/pdf";
import { type ReceiptLang, receiptTexts } from "./receipt-texts";

/** The legal mention of an invoice without VAT. */
const vatMention = (words: (typeof receiptTexts)[ReceiptLang], note: NonNullable<VatNote>) =>
  note === "exempt" ? words.vatExempt : words.vatOutsideEu;

/**
 * A receipt as an A4 PDF (pdfkit, standard Helvetica: no font file to ship). The same fields as
 * the receipt page, in the asked language.
 */
export async function receiptPdf(receipt: Receipt, lang: ReceiptLang): Promise<Buffer> {
  const words = receiptTexts[lang];
  const credit = receipt.kind === "credit_note";
  const title = credit ? words.creditTitle : words.title;
  const doc = await newPdf({
    size: "A4",
    margin: 56,
    info: { Title: `${title} ${receipt.number}`, Author: receipt.seller.name },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  doc.font("Helvetica-Bold").fontSize(22).text(`${title} ${receipt.number}`);
  doc.moveDown(0.3).font("Helvetica").fontSize(11).fillColor("#444");
  doc.text(
    `${credit ? words.creditDate : words.date}${words.sep}${formatDate(new Date(receipt.issued_at), lang)}`,
  );
  if (receipt.credit_of) doc.text(`${words.creditOf}${words.sep}${receipt.credit_of.number}`);
  doc.moveDown(1.2).fillColor("#000");

  const top = doc.y;
  const block = (x: number, title: string, lines: string[]) => {
    doc
      .font("Helvetica-Bold")
      .fontSize(10)
      .text(title.toUpperCase(), x, top, { width: width / 2 - 12 });
    doc.font("Helvetica").fontSize(11);
    for (const line of lines.filter(Boolean)) doc.text(line, x, undefined, { width: width / 2 - 12 });
    return doc.y;
  };
  const seller = receipt.seller;
  const sellerEnd = block(left, words.seller, [
    seller.name,
    ...seller.address.split(/\r?\n/),
    seller.country ? countryName(seller.country, lang) : "",
    seller.tax_id ? `${words.taxId}${words.sep}${seller.tax_id}` : "",
    seller.vat_number ? `${words.vatNumber}${words.sep}${seller.vat_number}` : "",
    seller.email,
  ]);
  const buyer = receipt.buyer;
  const buyerEnd = block(left + width / 2, words.buyer, [
    buyer.name,
    buyer.email,
    buyer.country ? `${words.country}${words.sep}${countryName(buyer.country, lang)}` : "",
  ]);
  doc.y = Math.max(sellerEnd, buyerEnd) + 28;
  doc.x = left;

  const planName = pickText({ fr: receipt.plan_name_fr, en: receipt.plan_name }, lang);
  const amount = formatMoney(credit ? -receipt.amount : receipt.amount, receipt.currency, lang);
  const line = receipt.item === "course" ? words.course(planName) : words.plan(planName);
  const vat = invoiceVat(receipt);
  const rateText = vat ? formatRate(vat.rate, lang) : "";
  const row = (label: string, value: string, bold = false, rate = "") => {
    const y = doc.y;
    doc.font(bold ? "Helvetica-Bold" : "Helvetica").fontSize(11);
    doc.text(label, left, y, { width: width * 0.55 });
    const end = doc.y;
    if (rate) doc.text(rate, left + width * 0.55, y, { width: width * 0.15, align: "right" });
    doc.text(value, left + width * 0.7, y, { width: width * 0.3, align: "right" });
    doc.y = Math.max(end, doc.y) + 6;
  };
  row(words.item, words.amount, true, vat ? words.vatRate : "");
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke("#999");
  doc.moveDown(0.5);
  const sign = credit ? -1 : 1;
  if (receipt.list_amount !== null && receipt.coupon_code) {
    row(
      `${line} (${words.listPrice})`,
      formatMoney(sign * receipt.list_amount, receipt.currency, lang),
      false,
      rateText,
    );
    row(
      words.discount(receipt.coupon_code),
      formatMoney(-sign * (receipt.list_amount - receipt.amount), receipt.currency, lang),
      false,
      rateText,
    );
  } else row(line, amount, false, rateText);
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .stroke("#999");
  doc.moveDown(0.5);
  if (vat && vat.note === null) {
    row(words.netTotal, formatMoney(vat.net, receipt.currency, lang));
    row(words.vatLine(rateText), formatMoney(vat.vat, receipt.currency, lang));
  }
  row(credit ? words.totalRefunded : words.total, amount, true);
  if (vat?.note)
    doc.font("Helvetica-Oblique").fontSize(10).text(vatMention(words, vat.note), left, undefined, { width });
  doc.moveDown(1);
  row(words.status, credit ? words.refunded : words.paid);
  row(words.method, words.providers[receipt.provider] ?? receipt.provider);
  doc
    .moveDown(2)
    .font("Helvetica")
    .fontSize(9)
    .fillColor("#555")
    .text(credit ? words.creditFooter : words.footer, left, undefined, { width });
  doc.end();
  return done;
}
