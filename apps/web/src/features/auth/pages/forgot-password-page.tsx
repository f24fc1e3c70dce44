import { MailOutlined } from "@ant-design/icons";
import { Button, Form, Input, Result } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { emailRules } from "@/lib/form-rules";
import { pagePath } from "@/lib/paths";
import { useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { forgotPassword } from "../api/auth-api";
import { AuthCard } from "../components/auth-card";

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  const [sent, setSent] = useState(false);
  const [pending, setPending] = useState(false);
  usePageTitle(t("auth:forgot.title"));

  const submit = async ({ email }: { email: string }) => {
    setPending(true);
    try {
      await forgotPassword(email.trim());
      setSent(true);
    } catch {
      // The client already showed the network or server toast.
    } finally {
      setPending(false);
    }
  };

  return (
    <AuthCard title={t("auth:forgot.title")} intro={sent ? undefined : t("auth:forgot.intro")}>
      {sent ? (
        <Result
          status="success"
          title={t("auth:forgot.sentTitle")}
          subTitle={t("auth:forgot.sent")}
          data-testid="forgot-sent"
          extra={<Link to={to(pagePath("login"))}>{t("auth:forgot.backToLogin")}</Link>}
        />
      ) : (
        <Form layout="vertical" requiredMark={false} onFinish={submit} name="forgot">
          <Form.Item label={t("auth:email")} name="email" rules={emailRules(t)}>
            <Input prefix={<MailOutlined />} type="email" autoComplete="email" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" block loading={pending}>
              {t("auth:forgot.submit")}
            </Button>
          </Form.Item>
          <Link to={to(pagePath("login"))}>{t("auth:forgot.backToLogin")}</Link>
        </Form>
      )}
    </AuthCard>
  );
}
