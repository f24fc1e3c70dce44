import { DownloadOutlined, ReloadOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Empty, Skeleton, Space, Typography } from "antd";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { DateRangeFields } from "@/components/date-range-fields";
import { DownloadButton } from "@/components/download-button";
import { LoadError } from "@/components/load-error";
import { errorText } from "@/lib/api-error";
import { useFormat } from "@/lib/format";
import { usePageTitle } from "@/lib/use-page-title";
import { analyticsQuery, downloadAnalyticsCsv } from "../api/analytics-api";
import "../analytics.css";
import { useRefreshAnalytics } from "../api/analytics-api";

// uPlot comes with the charts, after the page's frame and filters are on screen
const AnalyticsCharts = lazy(() => import("../components/analytics-charts"));

const DAY_MS = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);
const lastDays = (n: number) => ({ from: isoDay(Date.now() - (n - 1) * DAY_MS), to: isoDay(Date.now()) });
const PRESETS = [7, 30, 90, 365] as const;

/** `/analytics` (analytics.read): learning and business figures over a date range, charts and tables, CSV. */
export function AnalyticsPage() {
  const { t } = useTranslation("analytics");
  const { message } = App.useApp();
  const format = useFormat();
  const _queryClient = useQueryClient();
  const [range, setRange] = useState(() => lastDays(30));
  const [draft, setDraft] = useState(range);
  usePageTitle(t("title"));
  const figures = useQuery(analyticsQuery(range));
  const refresh = useRefreshAnalytics({
    onSuccess: () => {
      message.success(t("refreshed"));
    },
    onError: (error) => message.error(errorText(error)),
  });
  const invalid = !draft.from || !draft.to || draft.from > draft.to;
  const empty =
    figures.data?.days.every((d) => !d.active && !d.reviews && !d.new_paid && !d.churned && !d.attendance) &&
    figures.data.funnel.every((c) => c.lessons.every((l) => l.learners === 0));

  return (
    <Space orientation="vertical" size="large" style={{ width: "100%" }}>
      <div>
        <Typography.Title level={1} className="page-title">
          {t("title")}
        </Typography.Title>
        <Typography.Text type="secondary">
          {figures.data?.rolled_until
            ? t("updatedAt", { date: format.dateTime(figures.data.rolled_until) })
            : t("subtitle")}
        </Typography.Text>
      </div>
      <Card>
        <form
          className="analytics-filters"
          onSubmit={(e) => {
            e.preventDefault();
            if (!invalid) setRange(draft);
          }}
        >
          <DateRangeFields
            value={draft}
            onChange={setDraft}
            labels={{ from: t("from"), to: t("to") }}
            testIds={{ from: "analytics-from", to: "analytics-to" }}
          />
          <Button htmlType="submit" type="primary" disabled={invalid}>
            {t("apply")}
          </Button>
          <Space wrap>
            {PRESETS.map((n) => (
              <Button
                key={n}
                onClick={() => {
                  const next = lastDays(n);
                  setDraft(next);
                  setRange(next);
                }}
              >
                {t("lastDays", { count: n })}
              </Button>
            ))}
          </Space>
          <Space wrap className="analytics-filters__actions">
            <DownloadButton icon={<DownloadOutlined aria-hidden />} save={() => downloadAnalyticsCsv(range)}>
              {t("csv")}
            </DownloadButton>
            <Button
              icon={<ReloadOutlined aria-hidden />}
              loading={refresh.isPending}
              onClick={() => refresh.mutate()}
            >
              {t("refresh")}
            </Button>
          </Space>
        </form>
        {invalid && <Alert type="warning" showIcon message={t("invalidRange")} style={{ marginTop: 12 }} />}
      </Card>
      {figures.isError ? (
        <LoadError query={figures} />
      ) : figures.isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <>
          {empty && <Empty description={t("empty")} data-testid="analytics-empty" />}
          <Suspense fallback={<Skeleton active paragraph={{ rows: 8 }} />}>
            <AnalyticsCharts data={figures.data} />
          </Suspense>
        </>
      )}
    </Space>
  );
}
