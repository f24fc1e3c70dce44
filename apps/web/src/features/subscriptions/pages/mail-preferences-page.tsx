import { MAIL_KINDS, type MailKind } from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Card, Form, Select, Space, Switch, Typography } from "antd";
import { useId, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { LoadError } from "@/components/load-error";
import { habitSummaryQuery, useSaveHabitSettings } from "@/features/habit/api/habit-api";
import { errorText } from "@/lib/api-error";
import { pagePath } from "@/lib/paths";
import { useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { mailPreferencesQuery, useSaveMailPreferences } from "../api/subscriptions-api";

/** The hour a study reminder starts with when the learner switches reminders on without one. */
const DEFAULT_HOUR = 19;

function timeZones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return all.includes(current) ? all : [current, ...all];
}

/** `/profile/mail`: each kind of non-transactional mail with its switch; the study reminder's hour and time zone. */
export function MailPreferencesPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const to = useLocalePath();
  const _client = useQueryClient();
  const prefs = useQuery(mailPreferencesQuery);
  const habit = useQuery(habitSummaryQuery);
  const ids = { hour: useId(), zone: useId(), study_reminders: useId(), news: useId(), new_device: useId() };
  usePageTitle(t("habit:prefs.title"));

  /** Both saves put the answer in their query (the hooks do) and say so. */
  const saving = {
    onSuccess: () => void message.success(t("habit:prefs.saved")),
    onError: (error: unknown) => void message.error(errorText(error)),
  };
  const savePrefs = useSaveMailPreferences(saving);
  const saveHabit = useSaveHabitSettings(saving);
  const zone = habit.data?.settings.time_zone ?? "Europe/Paris";
  const zoneOptions = useMemo(
    () => timeZones(zone).map((z) => ({ value: z, label: z.replace(/_/g, " ") })),
    [zone],
  );
  const hourOptions = useMemo(
    () =>
      Array.from({ length: 24 }, (_, hour) => ({
        value: hour,
        label: t("habit:prefs.hourOption", { hour: String(hour).padStart(2, "0") }),
      })),
    [t],
  );

  const title = (
    <Typography.Title level={1} className="page-title">
      {t("habit:prefs.title")}
    </Typography.Title>
  );
  const failed = prefs.isError ? prefs : habit.isError ? habit : null;
  if (failed) {
    return (
      <Card className="narrow-card">
        {title}
        <LoadError query={failed} compact />
      </Card>
    );
  }
  if (!prefs.data || !habit.data) return <Card className="narrow-card" loading />;

  const subscribed = (kind: MailKind) => prefs.data.items.find((i) => i.kind === kind)?.subscribed ?? true;
  const hour = habit.data.settings.reminder_hour;
  const toggle = (kind: MailKind, on: boolean) => {
    savePrefs.mutate({ [kind]: on });
    if (kind === "study_reminders" && on && hour === null) saveHabit.mutate({ reminder_hour: DEFAULT_HOUR });
  };

  return (
    <Card className="narrow-card" data-testid="mail-preferences">
      {title}
      <Typography.Paragraph type="secondary">{t("habit:prefs.intro")}</Typography.Paragraph>
      <Form layout="vertical" component="div">
        {MAIL_KINDS.map((kind) => (
          <Form.Item
            key={kind}
            label={<label htmlFor={ids[kind]}>{t(`habit:prefs.kinds.${kind}`)}</label>}
            extra={t(`habit:prefs.hints.${kind}`)}
          >
            <Switch
              id={ids[kind]}
              checked={subscribed(kind)}
              loading={savePrefs.isPending && savePrefs.variables?.[kind] !== undefined}
              onChange={(on) => toggle(kind, on)}
              data-testid={`mail-pref-${kind}`}
            />
          </Form.Item>
        ))}
        <Form.Item
          label={<label htmlFor={ids.hour}>{t("habit:prefs.hour")}</label>}
          extra={hour === null ? t("habit:prefs.noHour") : undefined}
        >
          <Select
            id={ids.hour}
            style={{ maxWidth: 200 }}
            value={hour ?? undefined}
            options={hourOptions}
            allowClear
            disabled={!subscribed("study_reminders")}
            onChange={(value?: number) => saveHabit.mutate({ reminder_hour: value ?? null })}
            data-testid="reminder-hour"
          />
        </Form.Item>
        <Form.Item
          label={<label htmlFor={ids.zone}>{t("habit:prefs.timeZone")}</label>}
          extra={t("habit:prefs.timeZoneHint")}
        >
          <Select
            id={ids.zone}
            showSearch
            style={{ maxWidth: 320 }}
            value={zone}
            options={zoneOptions}
            onChange={(value: string) => saveHabit.mutate({ time_zone: value })}
            data-testid="time-zone"
          />
        </Form.Item>
      </Form>
      <Space>
        <ButtonLink to={to(pagePath("profile"))}>{t("habit:prefs.back")}</ButtonLink>
      </Space>
    </Card>
  );
}
