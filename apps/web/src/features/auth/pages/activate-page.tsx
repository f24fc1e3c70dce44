import { MailOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { App, Button, Form, Input, Result, Spin, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { useAuthModals } from "@/components/auth-modal-context";
import { errorText } from "@/lib/api-error";
import { emailRules } from "@/lib/form-rules";
import { usePageTitle } from "@/lib/use-page-title";
import { activationQuery, resendActivation } from "../api/auth-api";
import { AuthCard } from "../components/auth-card";
import { AuthResult } from "../components/auth-result";

/** `/activate/{token}`: activates the account, or offers a new link. */
export function ActivatePage() {
  const { t } = useTranslation();
  const token = useParams().token ?? "";
  const modals = useAuthModals();
  usePageTitle(t("auth:activate.title"));

  const activation = useQuery(activationQuery(token));

  if (token && activation.isPending) {
    return (
      <AuthCard title={t("auth:activate.title")}>
        <div className="center-block">
          <Spin tip={t("auth:activate.pending")}>
            <div style={{ minHeight: 80 }} />
          </Spin>
        </div>
      </AuthCard>
    );
  }

  if (token && activation.isSuccess) {
    return (
      <AuthCard title={t("auth:activate.title")}>
        <AuthResult
          status="success"
          title={t("auth:activate.successTitle")}
          subTitle={t("auth:activate.success")}
          testId="activate-success"
          action={{
            label: t("auth:login.submit"),
            onClick: () => modals.show("login"),
            testId: "activate-login",
          }}
        />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t("auth:activate.title")}>
      {token && (
        <Result
          status="error"
          title={t("auth:activate.failedTitle")}
          subTitle={t("auth:activate.failed")}
          data-testid="activate-failed"
        />
      )}
      <ResendForm />
    </AuthCard>
  );
}

function ResendForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [pending, setPending] = useState(false);
  const [sent, setSent] = useState(false);
  const submit = async ({ email }: { email: string }) => {
    setPending(true);
    try {
      await resendActivation(email.trim());
      setSent(true);
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setPending(false);
    }
  };
  if (sent) return <Typography.Paragraph role="status">{t("auth:activate.resendDone")}</Typography.Paragraph>;
  return (
    <Form layout="vertical" requiredMark={false} onFinish={submit} name="resend-activation">
      <Typography.Paragraph>{t("auth:activate.resendIntro")}</Typography.Paragraph>
      <Form.Item label={t("auth:email")} name="email" rules={emailRules(t)}>
        <Input prefix={<MailOutlined />} type="email" autoComplete="email" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={pending} block>
        {t("auth:activate.resendSubmit")}
      </Button>
    </Form>
  );
}
