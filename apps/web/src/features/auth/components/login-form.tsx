import { LockOutlined, MailOutlined } from "@ant-design/icons";
import type { CurrentUser, SecondFactorChallenge } from "@parlons/contract";
import { Alert, App, Button, Flex, Form, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ApiError, errorText } from "@/lib/api-error";
import { applyFieldErrors } from "@/lib/form-rules";
import { pagePath } from "@/lib/paths";
import { startSession } from "@/lib/session";
import { useLocalePath } from "@/lib/use-locale";
import { authenticate, resendActivation } from "../api/auth-api";
import { PasskeySignIn } from "./passkey-sign-in";
import { SecondFactorStep } from "./second-factor-step";
import { SocialButtons } from "./social-buttons";

interface LoginValues {
  username: string;
  password: string;
}

export interface LoginFormProps {
  onSuccess: (user: CurrentUser) => void;
  /** Opens the signup form (modal) instead of following a link. */
  onCreateAccount?: () => void;
  idPrefix?: string;
}

/** Refusals that last a while: shown in the form until the next try, not as a passing toast. */
const WAIT_CODES = new Set(["ACCOUNT_THROTTLED", "ACCOUNT_LOCKED", "RATE_LIMITED"]);

/** Login form of spec §2/§5: `username` (email) and password. */
export function LoginForm({ onSuccess, onCreateAccount, idPrefix = "login" }: LoginFormProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const to = useLocalePath();
  const [form] = Form.useForm<LoginValues>();
  const [pending, setPending] = useState(false);
  const [inactiveEmail, setInactiveEmail] = useState<string | null>(null);
  /** Why sign-in is refused for a while (the account throttled or locked, the address limited). */
  const [refusal, setRefusal] = useState<{ code: string; text: string } | null>(null);
  const [resending, setResending] = useState(false);
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  const [expired, setExpired] = useState(false);

  const submit = async (values: LoginValues) => {
    setPending(true);
    setInactiveEmail(null);
    setRefusal(null);
    try {
      const res = await authenticate({ username: values.username.trim(), password: values.password });
      setExpired(false);
      if ("secondFactor" in res.data) {
        setChallenge(res.data.secondFactor);
        return;
      }
      const user = await startSession(res.data.accessToken, res.data.expiresIn);
      // the server sends an English message for API users; the UI speaks the reader's language
      message.success(t("auth:login.success"));
      onSuccess(user);
    } catch (error) {
      if (error instanceof ApiError && error.code === "ACCOUNT_NOT_ACTIVATED") {
        setInactiveEmail(values.username.trim());
      } else if (error instanceof ApiError && WAIT_CODES.has(error.code)) {
        setRefusal({ code: error.code, text: errorText(error) });
      } else if (!applyFieldErrors(form, error, ["username", "password"])) {
        message.error(errorText(error));
      }
    } finally {
      setPending(false);
    }
  };

  const resend = async () => {
    if (!inactiveEmail) return;
    setResending(true);
    try {
      await resendActivation(inactiveEmail);
      message.success(t("auth:login.resendDone"));
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setResending(false);
    }
  };

  if (challenge) {
    return (
      <SecondFactorStep
        challenge={challenge}
        onSuccess={onSuccess}
        onRestart={(reason) => {
          setChallenge(null);
          setExpired(reason === "expired");
          form.setFieldValue("password", "");
        }}
      />
    );
  }

  return (
    <>
      {expired && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          style={{ marginBottom: 16 }}
          title={t("auth:twoFactor.expired")}
        />
      )}
      <SocialButtons />
      <Form<LoginValues>
        form={form}
        name={idPrefix}
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
        data-testid="login-form"
      >
        <Form.Item
          label={t("auth:email")}
          name="username"
          rules={[{ required: true, whitespace: true, message: t("auth:emailRequired") }]}
        >
          <Input prefix={<MailOutlined />} type="email" autoComplete="username" inputMode="email" />
        </Form.Item>
        <Form.Item
          label={t("auth:passwordLabel")}
          name="password"
          rules={[{ required: true, message: t("auth:passwordRequired") }]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        {refusal && (
          <Alert
            type={refusal.code === "ACCOUNT_LOCKED" ? "error" : "warning"}
            showIcon
            role="alert"
            data-testid={refusal.code === "ACCOUNT_LOCKED" ? "login-locked" : "login-throttled"}
            style={{ marginBottom: 16 }}
            title={t(refusal.code === "ACCOUNT_LOCKED" ? "auth:login.lockedTitle" : "auth:login.waitTitle")}
            description={refusal.text}
          />
        )}
        {inactiveEmail && (
          <Alert
            type="warning"
            showIcon
            role="alert"
            data-testid="not-activated"
            style={{ marginBottom: 16 }}
            title={t("auth:login.notActivatedTitle")}
            description={t("auth:login.notActivated")}
            action={
              <Button size="small" onClick={resend} loading={resending} data-testid="resend-activation">
                {t("auth:login.resend")}
              </Button>
            }
          />
        )}
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={pending} data-testid="login-submit">
            {t("auth:login.submit")}
          </Button>
        </Form.Item>
        <Form.Item>
          <PasskeySignIn onSuccess={onSuccess} />
        </Form.Item>
        <Flex justify="space-between" wrap gap={8}>
          <Link to={to(pagePath("forgotPassword"))}>{t("auth:login.forgot")}</Link>
          <Typography.Text>
            {t("auth:login.noAccount")}{" "}
            {onCreateAccount ? (
              <Typography.Link onClick={onCreateAccount} data-testid="to-signup">
                {t("auth:login.create")}
              </Typography.Link>
            ) : (
              <Link to={to("/")} state={{ authModal: "signup" }} data-testid="to-signup">
                {t("auth:login.create")}
              </Link>
            )}
          </Typography.Text>
        </Flex>
      </Form>
    </>
  );
}
