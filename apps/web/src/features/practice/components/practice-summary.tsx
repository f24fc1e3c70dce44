import { useQuery } from "@tanstack/react-query";
import { Button, Card, Col, Result, Row, Statistic } from "antd";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { formatDateTime } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { practiceStatsQuery } from "../api/practice-api";

/** The end of a session: exercises done, accuracy, and when the next line is due. */
export function PracticeSummary(props: {
  items: number;
  accuracy: number;
  offline: boolean;
  onAgain: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const stats = useQuery({ ...practiceStatsQuery, enabled: !props.offline });
  const next = stats.data?.next_due;
  return (
    <Result
      status="success"
      title={t("practice:summary.title")}
      subTitle={props.offline ? t("practice:summary.offline") : undefined}
      data-testid="practice-summary"
      extra={[
        <Card key="figures" className="practice-summary__figures">
          <Row gutter={16}>
            <Col span={8}>
              <Statistic
                title={t("practice:summary.items")}
                value={props.items}
                data-testid="practice-summary-items"
              />
            </Col>
            <Col span={8}>
              <Statistic
                title={t("practice:summary.accuracy")}
                value={Math.round(props.accuracy * 100)}
                suffix="%"
                data-testid="practice-summary-accuracy"
              />
            </Col>
            <Col span={8}>
              <Statistic
                title={t("practice:summary.nextDue")}
                loading={stats.isPending && !props.offline}
                value={(next && formatDateTime(next, lang, "short")) || t("practice:summary.none")}
                valueStyle={{ fontSize: 16 }}
                data-testid="practice-summary-next"
              />
            </Col>
          </Row>
        </Card>,
        <Button key="again" onClick={props.onAgain}>
          {t("practice:summary.again")}
        </Button>,
        <ButtonLink key="back" to={to(pagePath("dashboard"))}>
          {t("practice:summary.back")}
        </ButtonLink>,
      ]}
    />
  );
}
