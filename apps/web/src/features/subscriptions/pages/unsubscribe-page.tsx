import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Space, Spin, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { ButtonLink } from "@/components/button-link";
import { LoadError } from "@/components/load-error";
import { ApiError, errorText } from "@/lib/api-error";
import { pagePath } from "@/lib/paths";
import { useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { unsubscribeStatusQuery, useChangeSubscription } from "../api/subscriptions-api";

/**
 * `/unsubscribe/:token`: where a mail's unsubscribe link leads (the List-Unsubscribe URL opened in
 * a browser is redirected here). No sign-in: the signed token names the person and the kind of
 * mail. Opening the page changes nothing; the button unsubscribes, and the next one subscribes again.
 */
export function UnsubscribePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const to = useLocalePath();
  const { token = "" } = useParams();
  const _client = useQueryClient();
  const status = useQuery(unsubscribeStatusQuery(token));
  const [changed, setChanged] = useState(false);
  usePageTitle(t("habit:unsubscribe.title"));

  const change = useChangeSubscription(token, {
    onSuccess: () => {
      setChanged(true);
    },
    onError: (error) => message.error(errorText(error)),
  });

  let body: React.ReactNode;
  if (status.isPending) {
    body = (
      <Space>
        <Spin size="small" /> {t("habit:unsubscribe.loading")}
      </Space>
    );
  } else if (status.isError) {
    const error = status.error;
    const known = error instanceof ApiError && (error.status === 400 || error.status === 404);
    body = known ? (
      <Alert
        type="warning"
        showIcon
        data-testid="unsubscribe-invalid"
        message={t(error.status === 404 ? "habit:unsubscribe.gone" : "habit:unsubscribe.invalid")}
      />
    ) : (
      <LoadError query={status} compact />
    );
  } else {
    const { email, kind: kindKey, subscribed } = status.data;
    const kind = t(`habit:unsubscribe.kinds.${kindKey}`);
    body = subscribed ? (
      <>
        {changed && (
          <Alert
            type="success"
            showIcon
            style={{ marginBottom: 16 }}
            message={t("habit:unsubscribe.resubscribed", { kind })}
            data-testid="unsubscribe-resubscribed"
          />
        )}
        <Typography.Paragraph>{t("habit:unsubscribe.ask", { kind, email })}</Typography.Paragraph>
        <Button
          type="primary"
          danger
          loading={change.isPending}
          onClick={() => change.mutate(false)}
          data-testid="unsubscribe-confirm"
        >
          {t("habit:unsubscribe.confirm")}
        </Button>
      </>
    ) : (
      <>
        <Alert
          type="success"
          showIcon
          role="status"
          message={t("habit:unsubscribe.done", { kind, email })}
          data-testid="unsubscribe-done"
        />
        <Typography.Paragraph style={{ marginTop: 16 }}>{t("habit:unsubscribe.again")}</Typography.Paragraph>
        <Button
          loading={change.isPending}
          onClick={() => change.mutate(true)}
          data-testid="unsubscribe-resubscribe"
        >
          {t("habit:unsubscribe.resubscribe")}
        </Button>
      </>
    );
  }

  return (
    <Card className="narrow-card" style={{ margin: "32px auto" }}>
      <Typography.Title level={1} className="page-title">
        {t("habit:unsubscribe.title")}
      </Typography.Title>
      <div aria-live="polite">{body}</div>
      <Space wrap style={{ marginTop: 24 }}>
        <ButtonLink to={to(pagePath("mailPreferences"))} type="link">
          {t("habit:unsubscribe.manage")}
        </ButtonLink>
        <ButtonLink to={to("/")} type="link">
          {t("habit:unsubscribe.home")}
        </ButtonLink>
      </Space>
    </Card>
  );
}
