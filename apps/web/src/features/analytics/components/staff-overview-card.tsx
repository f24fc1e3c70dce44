import { DashboardOutlined } from "@ant-design/icons";
import type { StaffOverview } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Alert, Card, Skeleton, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatMoney, formatNumber } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { staffOverviewQuery } from "../api/analytics-api";
import "../staff-overview.css";

type Figure = "active_learners" | "lessons_done_week" | "new_learners_month" | "mrr" | "revenue_month";

/** Each figure and the page that explains it (the API leaves out what the reader may not open). */
const FIGURES: { key: Figure; page: "analytics" | "customers" | "sales"; money?: boolean }[] = [
  { key: "active_learners", page: "analytics" },
  { key: "lessons_done_week", page: "analytics" },
  { key: "new_learners_month", page: "customers" },
  { key: "mrr", page: "sales", money: true },
  { key: "revenue_month", page: "sales", money: true },
];

/** The staff landing page's card: the business at a glance, each figure a link to its page. */
export function StaffOverviewCard() {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const overview = useQuery(staffOverviewQuery);
  const shown = (data: StaffOverview) => FIGURES.filter((f) => data[f.key] !== null);

  return (
    <Card
      data-testid="staff-overview"
      title={
        <span>
          <DashboardOutlined /> {t("analytics:overview.title")}
        </span>
      }
    >
      {overview.isError ? (
        <Alert type="warning" showIcon title={t("analytics:overview.loadError")} />
      ) : !overview.data ? (
        <Skeleton active paragraph={{ rows: 2 }} title={false} />
      ) : shown(overview.data).length === 0 ? (
        <Typography.Text type="secondary">{t("analytics:overview.nothing")}</Typography.Text>
      ) : (
        <ul className="staff-overview">
          {shown(overview.data).map(({ key, page, money }) => {
            const value = overview.data[key] ?? 0;
            return (
              <li key={key}>
                <Link to={to(pagePath(page))} data-testid={`overview-${key}`} data-value={value}>
                  <span className="staff-overview-value">
                    {money ? formatMoney(value, overview.data.currency, lang) : formatNumber(value, lang)}
                  </span>
                  <span className="staff-overview-label">{t(`analytics:overview.figures.${key}`)}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
