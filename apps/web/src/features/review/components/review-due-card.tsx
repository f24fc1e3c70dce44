import { ThunderboltOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Card, Col, Row, Statistic, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { IconTitle } from "@/components/icon-title";
import { pagePath } from "@/lib/paths";
import { useLocalePath } from "@/lib/use-locale";
import { reviewStatsQuery } from "../api/review-queries";

/** Dashboard card: lines due and new in the review deck, and the way to the review session. */
export function ReviewDueCard() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const { data, isPending } = useQuery(reviewStatsQuery);
  const waiting = (data?.due ?? 0) + (data?.new ?? 0);
  return (
    <Card
      data-testid="review-card"
      loading={isPending}
      title={<IconTitle icon={<ThunderboltOutlined aria-hidden />}>{t("review:dashboard.title")}</IconTitle>}
    >
      <Row gutter={16}>
        <Col span={8} data-testid="review-due-count">
          <Statistic title={t("review:counts.due")} value={data?.due ?? 0} />
        </Col>
        <Col span={8} data-testid="review-new-count">
          <Statistic title={t("review:counts.new")} value={data?.new ?? 0} />
        </Col>
        <Col span={8}>
          <Statistic title={t("review:counts.today")} value={data?.reviewed_today ?? 0} />
        </Col>
      </Row>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {data?.total ? t("review:dashboard.deck", { count: data.total }) : t("review:dashboard.empty")}
      </Typography.Paragraph>
      <ButtonLink
        to={to(pagePath("review"))}
        type={waiting > 0 ? "primary" : "default"}
        data-testid="review-start"
      >
        {waiting > 0 ? t("review:dashboard.start", { count: waiting }) : t("review:dashboard.open")}
      </ButtonLink>
    </Card>
  );
}
