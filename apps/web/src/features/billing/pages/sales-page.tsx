import { type Purchase, type PurchaseStatus, purchaseStatus } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { App, Button, Card, Modal, Select, Space, Table, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { LoadError } from "@/components/load-error";
import { errorText } from "@/lib/api-error";
import { planName, useFormat } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { tablePages, WIDE_ONLY } from "@/lib/table";
import { useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { staffPurchasesQuery, useRefundPurchase } from "../api/purchases-api";

const PAGE_SIZE = 20;
const COLORS: Record<PurchaseStatus, string> = {
  PENDING: "default",
  PAID: "green",
  CANCELLED: "default",
  REFUNDED: "orange",
};

/** `/sales` (customer-plans.manage): courses bought once, newest first; refund one after confirming. */
export function SalesPage() {
  const { t } = useTranslation("billing");
  const { message } = App.useApp();
  const format = useFormat();
  const to = useLocalePath();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<PurchaseStatus | undefined>();
  const [refunding, setRefunding] = useState<Purchase | null>(null);
  usePageTitle(t("sales.title"));
  const list = useQuery(staffPurchasesQuery({ page, pageSize: PAGE_SIZE, status }));
  const refund = useRefundPurchase({
    onSuccess: (purchase) => {
      void message.success(t("sales.refunded", { number: purchase.credit_note?.number ?? "" }));
      setRefunding(null);
    },
    onError: (error) => void message.error(errorText(error)),
  });
  const receiptLink = (doc: { id: string; number: string } | null) =>
    doc ? <Link to={to(pagePath("receipt", { id: doc.id }))}>{doc.number}</Link> : null;

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <div>
        <Typography.Title level={1} className="page-title">
          {t("sales.title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("sales.subtitle")}</Typography.Text>{" "}
        <Link
          to={to(pagePath("salesReport"))}
          data-testid="sales-report-link"
          style={{ textDecoration: "underline" }}
        >
          {t("sales.report")}
        </Link>
      </div>
      <Card>
        <Space wrap style={{ marginBottom: 16 }}>
          <Select<PurchaseStatus | undefined>
            allowClear
            placeholder={t("sales.allStatuses")}
            aria-label={t("sales.status")}
            style={{ width: 200 }}
            value={status}
            onChange={(value) => {
              setStatus(value);
              setPage(1);
            }}
            options={purchaseStatus.options.map((s) => ({ value: s, label: t(`sales.statuses.${s}`) }))}
          />
        </Space>
        {list.isError ? (
          <LoadError query={list} compact />
        ) : (
          <Table<Purchase>
            rowKey="id"
            data-testid="sales-table"
            scroll={{ x: true }}
            loading={list.isFetching}
            dataSource={list.data?.purchases ?? []}
            locale={{ emptyText: t("sales.empty") }}
            pagination={tablePages(page, PAGE_SIZE, list.data?.pagination.total, setPage)}
            columns={[
              {
                title: t("sales.offer"),
                key: "offer",
                render: (_: unknown, row) =>
                  planName({ name: row.plan_name, name_fr: row.plan_name_fr }, format.lang),
              },
              {
                title: t("sales.buyer"),
                key: "buyer",
                render: (_: unknown, row) => row.buyer?.email ?? t("sales.erased"),
              },
              {
                title: t("sales.amount"),
                key: "amount",
                render: (_: unknown, row) => format.money(row.amount, row.currency),
              },
              {
                title: t("sales.date"),
                key: "date",
                responsive: WIDE_ONLY,
                render: (_: unknown, row) => format.date(row.paid_at ?? row.created_at),
              },
              {
                title: t("sales.status"),
                dataIndex: "status",
                render: (value: PurchaseStatus) => (
                  <Tag color={COLORS[value]}>{t(`sales.statuses.${value}`)}</Tag>
                ),
              },
              {
                title: t("sales.documents"),
                key: "documents",
                responsive: WIDE_ONLY,
                render: (_: unknown, row) => (
                  <Space size="small">
                    {receiptLink(row.receipt)}
                    {receiptLink(row.credit_note)}
                  </Space>
                ),
              },
              {
                key: "actions",
                title: <span className="visually-hidden">{t("sales.actions")}</span>,
                render: (_: unknown, row) =>
                  row.status === "PAID" ? (
                    <Button size="small" danger onClick={() => setRefunding(row)} data-testid="sales-refund">
                      {t("sales.refund")}
                    </Button>
                  ) : null,
              },
            ]}
          />
        )}
      </Card>
      <Modal
        open={refunding !== null}
        title={t("sales.confirmTitle")}
        okText={t("sales.refund")}
        okButtonProps={{ danger: true, loading: refund.isPending }}
        cancelText={t("actions.cancel")}
        onOk={() => refunding && refund.mutate(refunding.id)}
        onCancel={() => setRefunding(null)}
        destroyOnHidden
      >
        <Typography.Paragraph>
          {refunding &&
            t("sales.confirmText", {
              amount: format.money(refunding.amount, refunding.currency),
              email: refunding.buyer?.email ?? t("sales.erased"),
            })}
        </Typography.Paragraph>
      </Modal>
    </Space>
  );
}
