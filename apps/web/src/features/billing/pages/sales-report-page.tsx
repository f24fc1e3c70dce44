import type {
  SalesOrder,
  SalesRefund,
  SalesReport,
  SalesReportQuery,
  SalesTable,
  SalesTrial,
} from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Descriptions, Empty, Flex, Skeleton, Space, Table, Typography } from "antd";
import type { ColumnsType } from "antd/es/table";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { DateRangeFields } from "@/components/date-range-fields";
import { LoadError } from "@/components/load-error";
import { planName, useFormat } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { WIDE_ONLY } from "@/lib/table";
import { useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { salesReportQuery } from "../api/sales-api";
import { HEADING, SalesSection } from "../components/sales-section";

const isoDay = (d: Date) => d.toISOString().slice(0, 10);
/** From the first day of this month (UTC) to today. */
const thisMonth = (): SalesReportQuery => {
  const now = new Date();
  return { from: isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))), to: isoDay(now) };
};
const lastDays = (n: number): SalesReportQuery => ({
  from: isoDay(new Date(Date.now() - (n - 1) * 86_400_000)),
  to: isoDay(new Date()),
});
const thisYear = (): SalesReportQuery => ({
  from: `${new Date().getUTCFullYear()}-01-01`,
  to: isoDay(new Date()),
});

/** The orders' and refunds' tables: 20 rows a page. */
const LIST = {
  size: "small",
  scroll: { x: true },
  pagination: { pageSize: 20, hideOnSinglePage: true, showSizeChanger: false },
} as const;

type Revenue = { currency: string; gross: number; refunded: number; net: number };

/**
 * `/sales/report` (customer-plans.manage): what was sold over a chosen period (UTC days): totals,
 * revenue by offer and by course, coupon uses, orders and refunds (refunds netted in the period
 * they were made), each table downloadable as CSV.
 */
export function SalesReportPage() {
  const { t } = useTranslation("billing");
  const to = useLocalePath();
  const [range, setRange] = useState(thisMonth);
  const [draft, setDraft] = useState(range);
  usePageTitle(t("salesReport.title"));
  const report = useQuery(salesReportQuery(range));
  const invalid = !draft.from || !draft.to || draft.from > draft.to;
  const presets = [
    { key: "month", label: t("salesReport.thisMonth"), range: thisMonth },
    { key: "30", label: t("salesReport.last30"), range: () => lastDays(30) },
    { key: "year", label: t("salesReport.thisYear"), range: thisYear },
  ];

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <div>
        <Typography.Title level={1} className="page-title">
          {t("salesReport.title")}
        </Typography.Title>
        <Typography.Text type="secondary">{t("salesReport.subtitle")}</Typography.Text>{" "}
        <Link to={to(pagePath("sales"))} style={{ textDecoration: "underline" }}>
          {t("salesReport.toRefunds")}
        </Link>
      </div>
      <Card>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!invalid) setRange(draft);
          }}
        >
          <Flex wrap gap="12px 16px" align="flex-end">
            <DateRangeFields
              value={draft}
              onChange={setDraft}
              labels={{ from: t("salesReport.from"), to: t("salesReport.to") }}
              testIds={{ from: "sales-from", to: "sales-to" }}
              labelStyle={{ display: "flex", flexDirection: "column", gap: 4, fontWeight: 500 }}
              inputClassName="ant-input"
            />
            <Button htmlType="submit" type="primary" disabled={invalid} data-testid="sales-apply">
              {t("salesReport.apply")}
            </Button>
            <Space wrap>
              {presets.map((p) => (
                <Button
                  key={p.key}
                  onClick={() => {
                    const next = p.range();
                    setDraft(next);
                    setRange(next);
                  }}
                >
                  {p.label}
                </Button>
              ))}
            </Space>
          </Flex>
        </form>
        {invalid && (
          <Alert type="warning" showIcon title={t("salesReport.invalidRange")} style={{ marginTop: 12 }} />
        )}
      </Card>
      {report.isError ? (
        <LoadError query={report} />
      ) : report.isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <ReportBody report={report.data} range={range} busy={report.isFetching} />
      )}
    </Space>
  );
}

function ReportBody({
  report,
  range,
  busy,
}: {
  report: SalesReport;
  range: SalesReportQuery;
  busy: boolean;
}) {
  const { t } = useTranslation("billing");
  const format = useFormat();
  const money = (cents: number, currency: string) => format.money(cents, currency);
  const revenueColumns = <T extends Revenue>(): ColumnsType<T> => [
    {
      title: t("salesReport.gross"),
      key: "gross",
      align: "right",
      render: (_, r) => money(r.gross, r.currency),
    },
    {
      title: t("salesReport.refunded"),
      key: "refunded",
      align: "right",
      render: (_, r) => money(r.refunded, r.currency),
    },
    {
      title: t("salesReport.net"),
      key: "net",
      align: "right",
      render: (_, r) => <strong>{money(r.net, r.currency)}</strong>,
    },
  ];
  /** The offer, buyer and amount of an order or a refund. */
  const lineColumns = <T extends SalesOrder | SalesRefund>(): ColumnsType<T> => [
    {
      title: t("salesReport.offer"),
      key: "offer",
      render: (_, r) => planName({ name: r.plan_name, name_fr: r.plan_name_fr }, format.lang),
    },
    { title: t("salesReport.buyer"), dataIndex: "buyer_email", responsive: WIDE_ONLY },
    {
      title: t("salesReport.amount"),
      key: "amount",
      align: "right",
      render: (_, r) => money(r.amount, r.currency),
    },
  ];
  const truncated = (shown: number, total: number) =>
    total > shown ? t("salesReport.truncated", { shown, total }) : undefined;
  const empty =
    report.orders_total === 0 &&
    report.refunds_total === 0 &&
    report.coupon_uses.length === 0 &&
    report.trial_counts.started === 0;
  if (empty)
    return (
      <Card>
        <Empty description={t("salesReport.empty")} data-testid="sales-report-empty" />
      </Card>
    );
  const section = (title: string, table: SalesTable, body: ReactNode, note?: ReactNode) => (
    <SalesSection title={title} table={table} range={range} note={note}>
      {body}
    </SalesSection>
  );
  const item = (kind: "subscription" | "course") => t(`salesReport.items.${kind}`);

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }} aria-busy={busy}>
      <Card title={<h2 style={HEADING}>{t("salesReport.totals")}</h2>} data-testid="sales-totals">
        {report.totals.map((r) => (
          <Descriptions
            key={r.currency}
            size="small"
            column={{ xs: 1, sm: 2, md: 5 }}
            items={[
              { key: "payments", label: t("salesReport.payments"), children: format.number(r.payments) },
              { key: "gross", label: t("salesReport.gross"), children: money(r.gross, r.currency) },
              { key: "refunds", label: t("salesReport.refunds"), children: format.number(r.refunds) },
              { key: "refunded", label: t("salesReport.refunded"), children: money(r.refunded, r.currency) },
              {
                key: "net",
                label: t("salesReport.net"),
                children: <strong data-testid={`sales-net-${r.currency}`}>{money(r.net, r.currency)}</strong>,
              },
            ]}
          />
        ))}
      </Card>
      {section(
        t("salesReport.byPlan"),
        "plans",
        <Table
          rowKey={(r) => `${r.plan_id ?? r.plan_name}-${r.item}-${r.currency}`}
          size="small"
          scroll={{ x: true }}
          pagination={false}
          dataSource={report.by_plan}
          data-testid="sales-by-plan"
          columns={[
            {
              title: t("salesReport.offer"),
              key: "offer",
              render: (_, r) => planName({ name: r.plan_name, name_fr: r.plan_name_fr }, format.lang),
            },
            {
              title: t("salesReport.item"),
              key: "item",
              responsive: WIDE_ONLY,
              render: (_, r) => item(r.item),
            },
            { title: t("salesReport.payments"), dataIndex: "payments", align: "right" },
            ...revenueColumns<SalesReport["by_plan"][number]>(),
          ]}
        />,
      )}
      {section(
        t("salesReport.byCourse"),
        "courses",
        <Table
          rowKey={(r) => `${r.course_id}-${r.currency}`}
          size="small"
          scroll={{ x: true }}
          pagination={false}
          dataSource={report.by_course}
          locale={{ emptyText: t("salesReport.noCourses") }}
          data-testid="sales-by-course"
          columns={[
            {
              title: t("salesReport.course"),
              key: "course",
              render: (_, r) => (format.lang === "fr" ? r.title_fr : r.title_en) || r.course_id,
            },
            { title: t("salesReport.sales"), dataIndex: "sales", align: "right" },
            ...revenueColumns<SalesReport["by_course"][number]>(),
          ]}
        />,
        t("salesReport.byCourseNote"),
      )}
      {section(
        t("salesReport.coupons"),
        "coupons",
        <Table
          rowKey={(r) => `${r.code}-${r.currency}`}
          size="small"
          pagination={false}
          dataSource={report.coupon_uses}
          locale={{ emptyText: t("salesReport.noCoupons") }}
          data-testid="sales-coupons"
          columns={[
            { title: t("salesReport.code"), dataIndex: "code" },
            { title: t("salesReport.uses"), dataIndex: "uses", align: "right" },
            {
              title: t("salesReport.discount"),
              key: "discount",
              align: "right",
              render: (_, r) => money(r.discount, r.currency),
            },
          ]}
        />,
      )}
      {section(
        t("salesReport.orders"),
        "orders",
        <Table<SalesOrder>
          rowKey="payment_id"
          {...LIST}
          dataSource={report.orders}
          locale={{ emptyText: t("salesReport.noOrders") }}
          data-testid="sales-orders"
          columns={[
            { title: t("salesReport.date"), key: "date", render: (_, r) => format.date(r.paid_at) },
            ...lineColumns<SalesOrder>(),
            { title: t("salesReport.coupon"), dataIndex: "coupon_code", responsive: WIDE_ONLY },
            { title: t("salesReport.receipt"), dataIndex: "receipt_number", responsive: WIDE_ONLY },
            { title: t("salesReport.creditNote"), dataIndex: "credit_note_number", responsive: WIDE_ONLY },
          ]}
        />,
        truncated(report.orders.length, report.orders_total),
      )}
      {section(
        t("salesReport.refundsTitle"),
        "refunds",
        <Table<SalesRefund>
          rowKey="credit_note_number"
          {...LIST}
          dataSource={report.refunds}
          locale={{ emptyText: t("salesReport.noRefunds") }}
          data-testid="sales-refunds"
          columns={[
            { title: t("salesReport.date"), key: "date", render: (_, r) => format.date(r.issued_at) },
            { title: t("salesReport.creditNote"), dataIndex: "credit_note_number" },
            ...lineColumns<SalesRefund>(),
          ]}
        />,
        truncated(report.refunds.length, report.refunds_total),
      )}
      {section(
        t("salesReport.trials"),
        "trials",
        <Table<SalesTrial>
          rowKey="customer_plan_id"
          {...LIST}
          dataSource={report.trials}
          locale={{ emptyText: t("salesReport.noTrials") }}
          data-testid="sales-trials"
          columns={[
            { title: t("salesReport.date"), key: "date", render: (_, r) => format.date(r.started_at) },
            {
              title: t("salesReport.offer"),
              key: "offer",
              render: (_, r) => planName({ name: r.plan_name, name_fr: r.plan_name_fr }, format.lang),
            },
            { title: t("salesReport.buyer"), dataIndex: "buyer_email", responsive: WIDE_ONLY },
            { title: t("salesReport.trialEnds"), key: "ends", render: (_, r) => format.date(r.ends_at) },
            {
              title: t("salesReport.outcome"),
              key: "outcome",
              render: (_, r) => t(`salesReport.outcomes.${r.outcome}`),
            },
          ]}
        />,
        t("salesReport.trialCounts", report.trial_counts),
      )}
    </Space>
  );
}
