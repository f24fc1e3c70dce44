import type { HabitSummary } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { Card, Col, Result, Row, Statistic, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { intlLocale } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { reviewStatsQuery } from "../api/review-queries";

export interface SessionTally {
  /** Grades given (a line graded Again and seen again counts twice). */
  items: number;
  /** Grades Good or Easy. */
  correct: number;
}

/** When the next card is due, in words: "now", "in 10 minutes", "tomorrow". */
function relative(iso: string, lang: ReturnType<typeof useLang>, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const format = new Intl.RelativeTimeFormat(intlLocale(lang), { numeric: "auto" });
  if (seconds < 60) return format.format(0, "second");
  if (seconds < 3600) return format.format(Math.round(seconds / 60), "minute");
  if (seconds < 86_400) return format.format(Math.round(seconds / 3600), "hour");
  return format.format(Math.round(seconds / 86_400), "day");
}

/**
 * The end of a review session: what was done (items, accuracy), when the next card is due and
 * the streak. Offline, the figures the server gives wait for the connection.
 */
export function ReviewSummary({
  tally,
  habit,
  offline,
}: {
  tally: SessionTally;
  /** The habit after the session was recorded; null while it waits (offline) or is sent. */
  habit: HabitSummary | null;
  offline: boolean;
}) {
  const { t } = useTranslation();
  const lang = useLang();
  const to = useLocalePath();
  const stats = useQuery({ ...reviewStatsQuery, enabled: !offline, staleTime: 0 });
  const accuracy = tally.items ? Math.round((tally.correct / tally.items) * 100) : 0;
  const nextDue = stats.data?.next_due;
  return (
    <Card data-testid="review-summary">
      <Result
        status="success"
        title={t("review:summary.title", { count: tally.items })}
        subTitle={offline ? t("review:page.offline") : t("review:page.comeBack")}
        extra={<ButtonLink to={to(pagePath("dashboard"))}>{t("review:page.back")}</ButtonLink>}
      />
      <Row gutter={[16, 16]}>
        <Col xs={12} md={6}>
          <Statistic title={t("review:summary.items")} value={tally.items} data-testid="summary-items" />
        </Col>
        <Col xs={12} md={6}>
          <Statistic
            title={t("review:summary.accuracy")}
            value={accuracy}
            suffix="%"
            data-testid="summary-accuracy"
          />
        </Col>
        <Col xs={12} md={6} data-testid="summary-next">
          <Typography.Text type="secondary">{t("review:summary.next")}</Typography.Text>
          <div className="review-summary__value">
            {offline
              ? t("review:summary.whenOnline")
              : nextDue
                ? relative(nextDue, lang)
                : stats.isPending
                  ? "…"
                  : t("review:summary.nothingDue")}
          </div>
        </Col>
        <Col xs={12} md={6} data-testid="summary-streak">
          <Typography.Text type="secondary">{t("review:summary.streak")}</Typography.Text>
          <div className="review-summary__value">
            {habit
              ? t("habit:card.streakDays", { count: habit.streak.current })
              : offline
                ? t("review:summary.whenOnline")
                : "…"}
          </div>
        </Col>
      </Row>
    </Card>
  );
}
