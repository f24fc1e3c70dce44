import { ArrowLeftOutlined, DownloadOutlined, PrinterOutlined } from "@ant-design/icons";
import { invoiceVat, type Receipt } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Button, Result, Skeleton, Space } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { DownloadButton } from "@/components/download-button";
import { LoadError } from "@/components/load-error";
import { ApiError } from "@/lib/api-error";
import { countryLabel } from "@/lib/countries";
import { formatDate, formatMoney, formatNumber, planName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { downloadReceiptPdf, receiptQuery } from "../api/billing-api";
import "@/components/printable.css";
import "../receipt.css";

/**
 * `/billing/receipts/{id}`: a numbered receipt as a document that prints on one A4 page (the
 * app's shell and these buttons are hidden in print) and downloads as the server's PDF, in the
 * page's language.
 */
export function ReceiptPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const { id = "" } = useParams();
  const receipt = useQuery(receiptQuery(id));
  usePageTitle(
    receipt.data ? t(titleKey(receipt.data), { number: receipt.data.number }) : t("billing:receipt.heading"),
  );

  if (receipt.isError && !(receipt.error instanceof ApiError && receipt.error.status === 404)) {
    return <LoadError query={receipt} />;
  }
  if (receipt.isError) {
    return (
      <Result
        status="404"
        title={t("billing:receipt.notFound")}
        extra={<ButtonLink to={to(pagePath("billing"))}>{t("billing:receipt.back")}</ButtonLink>}
      />
    );
  }
  return (
    <div className="receipt-page">
      <div className="document-actions">
        <Link to={to(pagePath("billing"))}>
          <ArrowLeftOutlined aria-hidden /> {t("billing:receipt.back")}
        </Link>
        {receipt.data && <ReceiptButtons receipt={receipt.data} />}
      </div>
      {receipt.isPending ? <Skeleton active /> : <ReceiptDocument receipt={receipt.data} />}
    </div>
  );
}

/** A receipt, or the credit note of a refund. */
const titleKey = (receipt: Receipt) =>
  receipt.kind === "credit_note" ? "billing:receipt.creditTitle" : "billing:receipt.title";

function ReceiptButtons({ receipt }: { receipt: Receipt }) {
  const { t } = useTranslation();
  const lang = useLang();
  return (
    <Space wrap>
      <Button
        icon={<PrinterOutlined aria-hidden />}
        onClick={() => window.print()}
        data-testid="receipt-print"
      >
        {t("billing:receipt.print")}
      </Button>
      <DownloadButton
        type="primary"
        icon={<DownloadOutlined aria-hidden />}
        save={() => downloadReceiptPdf(receipt, lang)}
        data-testid="receipt-pdf"
      >
        {t("billing:receipt.pdf")}
      </DownloadButton>
    </Space>
  );
}

function ReceiptDocument({ receipt }: { receipt: Receipt }) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const credit = receipt.kind === "credit_note";
  const money = (cents: number) => formatMoney(credit ? -cents : cents, receipt.currency, lang);
  const amount = money(receipt.amount);
  const lineKey = receipt.item === "course" ? "billing:receipt.course" : "billing:receipt.subscription";
  const plan = planName({ name: receipt.plan_name, name_fr: receipt.plan_name_fr }, lang);
  const seller = receipt.seller;
  const vat = invoiceVat(receipt);
  const rate = vat
    ? formatNumber(vat.rate / 10000, lang, { style: "percent", maximumFractionDigits: 2 })
    : "";
  const rateCell = vat && <td className="receipt__amount">{rate}</td>;
  return (
    <article className="receipt" data-testid="receipt" aria-labelledby="receipt-title">
      <header className="receipt__head">
        <h1 id="receipt-title" className="receipt__title">
          {t(titleKey(receipt), { number: receipt.number })}
        </h1>
        <p className="receipt__date">
          {t(credit ? "billing:receipt.refundedOn" : "billing:receipt.paidOn")}{" "}
          <time dateTime={receipt.issued_at}>{formatDate(receipt.issued_at, lang)}</time>
        </p>
        {receipt.credit_of && (
          <p className="receipt__date" data-testid="receipt-credit-of">
            {t("billing:receipt.creditOf")}{" "}
            <Link to={to(pagePath("receipt", { id: receipt.credit_of.id }))}>{receipt.credit_of.number}</Link>
          </p>
        )}
      </header>
      <div className="receipt__parties">
        <section aria-labelledby="receipt-seller">
          <h2 id="receipt-seller">{t("billing:receipt.seller")}</h2>
          <address data-testid="receipt-seller">
            <strong>{seller.name}</strong>
            {seller.address.split(/\r?\n/).map((line) => (
              <span key={line}>{line}</span>
            ))}
            {seller.country && <span>{countryLabel(seller.country, lang)}</span>}
            {seller.tax_id && <span>{t("billing:receipt.taxId", { id: seller.tax_id })}</span>}
            {seller.vat_number && <span>{t("billing:receipt.vatNumber", { id: seller.vat_number })}</span>}
            {seller.email && <span>{seller.email}</span>}
          </address>
        </section>
        <section aria-labelledby="receipt-buyer">
          <h2 id="receipt-buyer">{t("billing:receipt.buyer")}</h2>
          <address>
            <strong>{receipt.buyer.name}</strong>
            <span>{receipt.buyer.email}</span>
            {receipt.buyer.country && (
              <span>
                {t("billing:receipt.country", { country: countryLabel(receipt.buyer.country, lang) })}
              </span>
            )}
          </address>
        </section>
      </div>
      <table className="receipt__lines">
        <caption className="visually-hidden">{t("billing:receipt.linesCaption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("billing:receipt.item")}</th>
            {vat && (
              <th scope="col" className="receipt__amount">
                {t("billing:receipt.vatRate")}
              </th>
            )}
            <th scope="col" className="receipt__amount">
              {t("billing:receipt.amount")}
            </th>
          </tr>
        </thead>
        <tbody>
          {receipt.list_amount !== null && receipt.coupon_code ? (
            <>
              <tr>
                <td>{t(lineKey, { plan })}</td>
                {rateCell}
                <td className="receipt__amount">{money(receipt.list_amount)}</td>
              </tr>
              <tr data-testid="receipt-discount">
                <td>{t("billing:receipt.discount", { code: receipt.coupon_code })}</td>
                {rateCell}
                <td className="receipt__amount">{money(-(receipt.list_amount - receipt.amount))}</td>
              </tr>
            </>
          ) : (
            <tr>
              <td>{t(lineKey, { plan })}</td>
              {rateCell}
              <td className="receipt__amount">{amount}</td>
            </tr>
          )}
        </tbody>
        <tfoot>
          {vat && vat.note === null && (
            <>
              <tr>
                <th scope="row" colSpan={2}>
                  {t("billing:receipt.netTotal")}
                </th>
                <td className="receipt__amount" data-testid="receipt-net">
                  {formatMoney(vat.net, receipt.currency, lang)}
                </td>
              </tr>
              <tr>
                <th scope="row" colSpan={2}>
                  {t("billing:receipt.vatLine", { rate })}
                </th>
                <td className="receipt__amount" data-testid="receipt-vat">
                  {formatMoney(vat.vat, receipt.currency, lang)}
                </td>
              </tr>
            </>
          )}
          <tr>
            <th scope="row" colSpan={vat ? 2 : 1}>
              {t(credit ? "billing:receipt.totalRefunded" : "billing:receipt.total")}
            </th>
            <td className="receipt__amount" data-testid="receipt-total">
              {amount}
            </td>
          </tr>
        </tfoot>
      </table>
      {vat?.note && (
        <p className="receipt__mention" data-testid="receipt-vat-mention">
          {t(vat.note === "exempt" ? "billing:receipt.vatExempt" : "billing:receipt.vatOutsideEu")}
        </p>
      )}
      <dl className="receipt__facts">
        <dt>{t("billing:receipt.status")}</dt>
        <dd>{t(`billing:payments.statuses.${receipt.status}`)}</dd>
        <dt>{t("billing:receipt.method")}</dt>
        <dd>{t(`billing:provider.${receipt.provider}`, { defaultValue: receipt.provider })}</dd>
        <dt>{t("billing:receipt.currency")}</dt>
        <dd>{receipt.currency}</dd>
      </dl>
      <p className="receipt__footer">
        {t(credit ? "billing:receipt.creditFooter" : "billing:receipt.footer")}
      </p>
    </article>
  );
}
