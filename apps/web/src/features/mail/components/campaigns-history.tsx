import { type MailAudience, type MailCampaign, pickField } from "@parlons/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Button, Result, Table, Tag } from "antd";
import type { TFunction } from "i18next";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "@/lib/api-error";
import { formatDateTime, formatNumber } from "@/lib/format";
import { speakName } from "@/lib/languages";
import { WIDE_ONLY } from "@/lib/table";
import { useLang } from "@/lib/use-locale";
import { audienceCoursesQuery, campaignsQuery } from "../api/campaigns-api";

const STATUS_COLORS: Record<MailCampaign["status"], string> = {
  DRAFT: "default",
  QUEUED: "blue",
  SENDING: "processing",
  SENT: "green",
  FAILED: "red",
};

function audienceText(audience: MailAudience, t: TFunction, courseTitle: (id: string) => string): string {
  const parts = [
    audience.role,
    audience.plan === "free" || audience.plan === "premium"
      ? t(`mail:send.plans.${audience.plan}`)
      : audience.plan,
    audience.speak ? speakName(audience.speak) : undefined,
    audience.course_id ? courseTitle(audience.course_id) : undefined,
    audience.inactive_days ? t("mail:send.inactiveFor", { count: audience.inactive_days }) : undefined,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : t("mail:send.everyone");
}

/** The campaigns sent so far, newest first, with their counts (they move while one is going). */
export function CampaignsHistory() {
  const { t } = useTranslation();
  const lang = useLang();
  const [page, setPage] = useState(1);
  const courses = useQuery(audienceCoursesQuery).data?.courses ?? [];
  const courseTitle = (id: string) => {
    const course = courses.find((c) => c.id === id);
    return course ? pickField(course, "title", lang) : t("mail:send.someCourse");
  };
  const figure = (key: "total" | "sent" | "failed" | "unsubscribed") => ({
    key,
    title: t(`mail:send.columns.${key}`),
    align: "right" as const,
    render: (_: unknown, row: MailCampaign) => (
      <span data-testid={`campaign-${key}`}>{formatNumber(row[key], lang)}</span>
    ),
  });
  const campaigns = useQuery({
    ...campaignsQuery(page),
    placeholderData: keepPreviousData,
    // while a campaign of the page is still going, its counts move
    refetchInterval: (query) =>
      query.state.data?.campaigns.some((c) => c.status === "QUEUED" || c.status === "SENDING") ? 2000 : false,
  });
  if (campaigns.isError) {
    return (
      <Result
        status="warning"
        title={t("mail:send.loadError")}
        subTitle={errorText(campaigns.error)}
        extra={<Button onClick={() => void campaigns.refetch()}>{t("mail:send.retry")}</Button>}
      />
    );
  }
  return (
    <Table<MailCampaign>
      rowKey="id"
      data-testid="campaigns-table"
      loading={campaigns.isPending}
      dataSource={campaigns.data?.campaigns ?? []}
      pagination={{
        current: page,
        pageSize: 10,
        total: campaigns.data?.pagination.total ?? 0,
        onChange: setPage,
        hideOnSinglePage: true,
      }}
      scroll={{ x: true }}
      locale={{ emptyText: t("mail:send.historyEmpty") }}
      columns={[
        {
          key: "date",
          title: t("mail:send.columns.date"),
          render: (_: unknown, row: MailCampaign) => formatDateTime(row.started_at ?? row.created_at, lang),
        },
        {
          key: "subject",
          title: t("mail:send.columns.subject"),
          render: (_: unknown, row: MailCampaign) => pickField(row, "subject", lang),
        },
        {
          key: "audience",
          responsive: WIDE_ONLY,
          title: t("mail:send.columns.audience"),
          render: (_: unknown, row: MailCampaign) => audienceText(row.audience, t, courseTitle),
        },
        {
          key: "status",
          title: t("mail:send.columns.status"),
          render: (_: unknown, row: MailCampaign) => (
            <Tag color={STATUS_COLORS[row.status]}>{t(`mail:send.status.${row.status}`)}</Tag>
          ),
        },
        figure("total"),
        figure("sent"),
        figure("failed"),
        figure("unsubscribed"),
      ]}
    />
  );
}
