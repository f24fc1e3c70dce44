import { App, Button, Card, Space, Spin, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "@/lib/api-error";
import { type PushState, pushState, startPush, stopPush } from "../api/push-api";

/**
 * Profile: study and event reminders as notifications on this device (Web Push). One tap starts
 * them (the browser asks for the permission), one tap stops them; a browser without push, or
 * where notifications were refused, says so and what to do.
 */
export function PushCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [state, setState] = useState<PushState | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    let live = true;
    pushState()
      .then((s) => live && setState(s))
      .catch(() => live && setState("off"));
    return () => {
      live = false;
    };
  }, []);

  const run = async (action: () => Promise<PushState>, done: string) => {
    setPending(true);
    try {
      const next = await action();
      setState(next);
      if (next === "denied") message.warning(t("habit:push.denied"));
      else if (next !== "off" || done === "habit:push.stopped") message.success(t(done));
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setPending(false);
    }
  };

  const title = (
    <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }} id="push-title">
      {t("habit:push.title")}
    </Typography.Title>
  );
  return (
    <Card className="narrow-card" title={title} id="push" data-testid="push-card">
      <Typography.Paragraph type="secondary">{t("habit:push.intro")}</Typography.Paragraph>
      {state === null ? (
        <Spin />
      ) : state === "unsupported" || state === "denied" ? (
        <Typography.Paragraph data-testid={`push-${state}`}>{t(`habit:push.${state}`)}</Typography.Paragraph>
      ) : state === "on" ? (
        <Space wrap align="center">
          <Typography.Text data-testid="push-on">{t("habit:push.on")}</Typography.Text>
          <Button
            danger
            loading={pending}
            onClick={() => run(stopPush, "habit:push.stopped")}
            data-testid="push-stop"
          >
            {t("habit:push.stop")}
          </Button>
        </Space>
      ) : (
        <Button
          type="primary"
          loading={pending}
          onClick={() => run(startPush, "habit:push.started")}
          data-testid="push-start"
        >
          {t("habit:push.start")}
        </Button>
      )}
    </Card>
  );
}
