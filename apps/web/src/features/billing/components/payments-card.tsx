import type { Payment } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Result, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatDate, formatMoney, planName } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { tablePages, WIDE_ONLY } from "@/lib/table";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { useIsPhone } from "@/lib/use-media-query";
import { PAYMENTS_PAGE_SIZE, paymentsQuery } from "../api/billing-api";
import { PaymentsTitle } from "./payments-title";

/**
 * The payment history: its own chunk, loaded beside the page's (antd's Table, with its
 * pagination and select, is 50 KB gzip that the current plan above it does without; issue 26).
 */
export function PaymentsCard() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const [page, setPage] = useState(1);
  const payments = useQuery(paymentsQuery(page));
  const phone = useIsPhone();

  return (
    <Card title={<PaymentsTitle />}>
      {payments.isError ? (
        <Result
          status="warning"
          title={t("billing:payments.loadError")}
          extra={<Button onClick={() => void payments.refetch()}>{t("billing:actions.retry")}</Button>}
        />
      ) : (
        <Table<Payment>
          data-testid="payments-table"
          rowKey="id"
          loading={payments.isPending}
          dataSource={payments.data?.payments ?? []}
          locale={{
            emptyText: <Typography.Text type="secondary">{t("billing:payments.empty")}</Typography.Text>,
          }}
          // on a phone: date, plan, amount and receipt, wrapped to the screen (no sideways scroll hiding the receipt)
          scroll={phone ? undefined : { x: true }}
          size={phone ? "small" : "middle"}
          className={phone ? "table--wrap" : undefined}
          pagination={tablePages(page, PAYMENTS_PAGE_SIZE, payments.data?.pagination.total, setPage, {
            hideOnSinglePage: true,
          })}
          columns={[
            {
              key: "date",
              title: t("billing:payments.date"),
              dataIndex: "paid_at",
              render: (value: string) => formatDate(value, lang, phone ? "medium" : "long"),
            },
            {
              key: "plan",
              title: t("billing:payments.plan"),
              render: (_: unknown, p: Payment) =>
                p.plan_name
                  ? planName({ name: p.plan_name, name_fr: p.plan_name_fr ?? p.plan_name }, lang)
                  : "—",
            },
            {
              key: "amount",
              title: t("billing:payments.amount"),
              render: (_: unknown, p: Payment) => formatMoney(p.amount, p.currency, lang),
            },
            {
              key: "receipt",
              title: t("billing:payments.receipt"),
              render: (_: unknown, p: Payment) =>
                p.receipt ? (
                  <>
                    <Link
                      to={to(pagePath("receipt", { id: p.receipt.id }))}
                      data-testid="payment-receipt"
                      aria-label={t("billing:payments.openReceipt", { number: p.receipt.number })}
                    >
                      {p.receipt.number}
                    </Link>
                    {p.credit_note && (
                      <>
                        {" · "}
                        <Link
                          to={to(pagePath("receipt", { id: p.credit_note.id }))}
                          data-testid="payment-credit-note"
                          aria-label={t("billing:payments.openCreditNote", { number: p.credit_note.number })}
                        >
                          {p.credit_note.number}
                        </Link>
                      </>
                    )}
                  </>
                ) : (
                  "—"
                ),
            },
            {
              key: "currency",
              responsive: WIDE_ONLY,
              title: t("billing:payments.currency"),
              dataIndex: "currency",
            },
            {
              key: "status",
              responsive: WIDE_ONLY,
              title: t("billing:payments.status"),
              render: (_: unknown, p: Payment) => (
                <Tag color={p.status === "PAID" ? "green" : "orange"}>
                  {t(`billing:payments.statuses.${p.status}`)}
                </Tag>
              ),
            },
            {
              key: "provider",
              responsive: WIDE_ONLY,
              title: t("billing:payments.provider"),
              dataIndex: "provider",
              render: (value: string) => t(`billing:provider.${value}`, { defaultValue: value }),
            },
            {
              key: "reference",
              responsive: WIDE_ONLY,
              title: t("billing:payments.reference"),
              dataIndex: "provider_payment_id",
              render: (value: string) => <Typography.Text code>{value}</Typography.Text>,
            },
          ]}
        />
      )}
    </Card>
  );
}
