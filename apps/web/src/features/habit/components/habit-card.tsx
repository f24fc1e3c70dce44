import { FireOutlined } from "@ant-design/icons";
import { DAILY_GOAL_MAX, DAILY_GOAL_MIN, type HabitDay } from "@parlons/contract";
import { useQuery } from "@tanstack/react-query";
import { App, Button, Card, Col, Form, InputNumber, Progress, Row, Space, Statistic, Typography } from "antd";
import { useEffect, useId } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { IconTitle } from "@/components/icon-title";
import { errorText } from "@/lib/api-error";
import { intlLocale } from "@/lib/format";
import type { Lang } from "@/lib/locale-path";
import { pagePath } from "@/lib/paths";
import { useSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import "./habit.css";
import { LoadError } from "@/components/load-error";
import { browserTimeZone, habitSummaryQuery, useSaveHabitSettings } from "../api/habit-api";

const TZ_SENT = "habit.timeZoneSent";

/** Short weekday of a YYYY-MM-DD date ("lun.", "Mon"). */
function weekday(date: string, lang: Lang) {
  return new Intl.DateTimeFormat(intlLocale(lang), {
    weekday: "short",
    timeZone: "UTC",
  }).format(new Date(`${date}T00:00:00Z`));
}

/**
 * Dashboard card of the daily habit: today's progress toward the goal, the streak and its weekly
 * freeze, the last seven days, and the goal to change. The first time, the browser's time zone
 * becomes the learner's (their days and reminder hour are counted in it).
 */
export function HabitCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lang = useLang();
  const to = useLocalePath();
  const { user } = useSession();
  const query = useQuery(habitSummaryQuery);
  const goalId = useId();
  const { data } = query;

  const save = useSaveHabitSettings();

  // the browser's zone, once per learner and browser, when it differs from the stored one
  const stored = data?.settings.time_zone;
  useEffect(() => {
    const zone = browserTimeZone();
    const key = `${TZ_SENT}.${user?.id ?? ""}`;
    if (!stored || !zone || zone === stored || !user || localStorage.getItem(key)) return;
    localStorage.setItem(key, zone);
    save.mutate({ time_zone: zone });
  }, [stored, user, save.mutate]);

  const title = <IconTitle icon={<FireOutlined aria-hidden />}>{t("habit:card.title")}</IconTitle>;
  if (query.isError) {
    return (
      <Card title={title} data-testid="habit-card">
        <LoadError query={query} compact />
      </Card>
    );
  }
  if (!data) return <Card title={title} loading data-testid="habit-card" />;

  const { today, streak, week, settings } = data;
  const percent = Math.min(100, Math.round((today.progress_seconds / Math.max(1, today.goal_seconds)) * 100));
  const left = Math.max(0, Math.ceil((today.goal_seconds - today.progress_seconds) / 60));
  const nothingYet =
    streak.current === 0 && week.every((d) => d.seconds === 0 && d.lines === 0 && !d.studied);
  const dayLabel = (d: HabitDay) =>
    t(d.studied ? "habit:card.dayStudied" : d.frozen ? "habit:card.dayFrozen" : "habit:card.dayMissed", {
      day: weekday(d.date, lang),
    });

  return (
    <Card title={title} data-testid="habit-card">
      <Row gutter={16} align="middle">
        <Col xs={12}>
          <Progress
            type="circle"
            percent={percent}
            size={96}
            format={() =>
              t("habit:card.progress", {
                done: Math.floor(today.progress_seconds / 60),
                goal: settings.goal_minutes,
              })
            }
            aria-label={t("habit:card.progressLabel", { percent })}
            data-testid="habit-progress"
          />
        </Col>
        <Col xs={12} data-testid="habit-streak">
          <Statistic
            title={t("habit:card.streak")}
            value={t("habit:card.streakDays", { count: streak.current })}
            prefix={
              <FireOutlined aria-hidden style={{ color: streak.current > 0 ? "#fa541c" : undefined }} />
            }
          />
        </Col>
      </Row>
      <Typography.Paragraph style={{ marginTop: 12, marginBottom: 4 }} data-testid="habit-today">
        {today.goal_reached
          ? t("habit:card.reached")
          : today.studied
            ? t("habit:card.counted")
            : t("habit:card.toGo", { count: left })}{" "}
        <Typography.Text type="secondary">
          {t("habit:card.listened", { count: today.minutes })} ·{" "}
          {t("habit:card.reviewed", { count: today.lines })}
        </Typography.Text>
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {nothingYet
          ? t("habit:card.empty")
          : streak.freeze_available
            ? t("habit:card.freezeAvailable")
            : t("habit:card.freezeUsed")}
      </Typography.Paragraph>
      <ol className="habit-week" aria-label={t("habit:card.week")}>
        {week.map((d) => (
          <li
            key={d.date}
            className={`habit-week__day${d.studied ? " is-reached" : d.frozen ? " is-frozen" : ""}`}
            aria-label={dayLabel(d)}
            title={dayLabel(d)}
            data-studied={d.studied}
          >
            <span aria-hidden>{d.studied ? "✓" : d.frozen ? "❄" : "·"}</span>
            <span aria-hidden className="habit-week__name">
              {weekday(d.date, lang)}
            </span>
          </li>
        ))}
      </ol>
      <Form
        layout="inline"
        style={{ marginTop: 12, rowGap: 8 }}
        initialValues={{ goal: settings.goal_minutes }}
        onFinish={(values: { goal: number }) =>
          save.mutate(
            { goal_minutes: values.goal },
            {
              onSuccess: () => message.success(t("habit:card.goalSaved")),
              onError: (error) => message.error(errorText(error)),
            },
          )
        }
      >
        <Form.Item
          label={t("habit:card.goalLabel")}
          htmlFor={goalId}
          name="goal"
          rules={[
            {
              required: true,
              type: "integer",
              min: DAILY_GOAL_MIN,
              max: DAILY_GOAL_MAX,
              message: t("habit:card.goalInvalid"),
            },
          ]}
        >
          <InputNumber
            id={goalId}
            min={DAILY_GOAL_MIN}
            max={DAILY_GOAL_MAX}
            precision={0}
            data-testid="habit-goal"
          />
        </Form.Item>
        <Space>
          <Button htmlType="submit" loading={save.isPending} data-testid="habit-goal-save">
            {t("habit:card.goalSave")}
          </Button>
          <ButtonLink to={to(pagePath("mailPreferences"))} type="link">
            {t("habit:card.settings")}
          </ButtonLink>
        </Space>
      </Form>
    </Card>
  );
}
