import { useQuery } from "@tanstack/react-query";
import { App, Button, Form, Spin } from "antd";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams, useSearchParams } from "react-router";
import { errorText } from "@/lib/api-error";
import { applyFieldErrors } from "@/lib/form-rules";
import { pagePath } from "@/lib/paths";
import { useLocalePath } from "@/lib/use-locale";
import { usePageTitle } from "@/lib/use-page-title";
import { resetForgotPassword, resetTokenQuery } from "../api/auth-api";
import { AuthCard } from "../components/auth-card";
import { AuthResult } from "../components/auth-result";
import { NewPasswordFields } from "../components/new-password-fields";

/** What the page says once the password is changed, or when its link is no longer good. */
const OUTCOMES = {
  done: {
    status: "success",
    text: "success",
    testId: "reset-done",
    next: "login",
    label: "auth:login.submit",
  },
  invalid: {
    status: "warning",
    text: "invalid",
    testId: "reset-invalid",
    next: "forgotPassword",
    label: "auth:reset.requestNew",
  },
} as const;

function ResetOutcome(props: (typeof OUTCOMES)[keyof typeof OUTCOMES]) {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <AuthResult
      status={props.status}
      title={t(`auth:reset.${props.text}Title`)}
      subTitle={t(`auth:reset.${props.text}`)}
      testId={props.testId}
      action={{ to: to(pagePath(props.next)), label: t(props.label) }}
    />
  );
}

/** `/reset-password/{token}` and `/reset-user-password?token=`. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ password: string }>();
  const params = useParams();
  const [search] = useSearchParams();
  const token = params.token ?? search.get("token") ?? "";
  const [done, setDone] = useState(false);
  const [pending, setPending] = useState(false);
  usePageTitle(t("auth:reset.title"));

  const check = useQuery(resetTokenQuery(token));

  const submit = async (values: { password: string }) => {
    setPending(true);
    try {
      await resetForgotPassword(token, values.password);
      setDone(true);
    } catch (error) {
      if (!applyFieldErrors(form, error, ["password"])) message.error(errorText(error));
    } finally {
      setPending(false);
    }
  };

  let body: ReactNode;
  if (done) {
    body = <ResetOutcome {...OUTCOMES.done} />;
  } else if (token && check.isPending) {
    body = (
      <div className="center-block">
        <Spin />
      </div>
    );
  } else if (!token || check.isError || check.data !== true) {
    body = <ResetOutcome {...OUTCOMES.invalid} />;
  } else {
    body = (
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} name="reset">
        <NewPasswordFields
          name="password"
          label={t("auth:reset.newPassword")}
          confirmLabel={t("auth:reset.confirm")}
        />
        <Button type="primary" htmlType="submit" block loading={pending}>
          {t("auth:reset.submit")}
        </Button>
      </Form>
    );
  }

  return <AuthCard title={t("auth:reset.title")}>{body}</AuthCard>;
}
