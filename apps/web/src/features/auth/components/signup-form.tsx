import { LockOutlined, MailOutlined } from "@ant-design/icons";
import { App, Button, Form, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { loadSettings } from "@/features/settings/api/settings-queries";
import { ApiError, errorText } from "@/lib/api-error";
import { applyFieldErrors, emailRules, passwordRules } from "@/lib/form-rules";
import { toSpeak } from "@/lib/languages";
import { useLang } from "@/lib/use-locale";
import { authenticate, selfRegister } from "../api/auth-api";
import { chooseSignupCourse, signupCourse } from "../api/signup-course";

interface SignupValues {
  email: string;
  password: string;
}

/** PENDING: an activation mail is on its way; ACTIVE: log in now; SIGNED_IN: the session is ready to start. */
export type SignupStatus = "PENDING" | "ACTIVE" | "SIGNED_IN";
/** The session of a learner just signed up, started when they leave the success modal. */
export interface SignupSession {
  accessToken: string;
  expiresIn?: number;
}

/** Signup form of spec §2/§5; always registers a CUSTOMER speaking the UI language. */
export function SignupForm({
  onSuccess,
  onLogin,
}: {
  onSuccess: (status: SignupStatus, session?: SignupSession) => void;
  onLogin: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lang = useLang();
  const [form] = Form.useForm<SignupValues>();
  const [pending, setPending] = useState(false);

  const submit = async (values: SignupValues) => {
    setPending(true);
    try {
      const res = await selfRegister({
        email: values.email.trim(),
        password: values.password,
        role: "CUSTOMER",
        course_id: signupCourse(),
        speak: toSpeak(lang),
      });
      chooseSignupCourse(null);
      message.success(t("auth:signup.success"));
      if (res.data.status !== "ACTIVE") return onSuccess("PENDING");
      // no activation needed: signed in at once (the session starts as the success modal is left,
      // so that a page whose layout follows the session does not take the modal away)
      const signIn = await authenticate({ username: values.email.trim(), password: values.password }).catch(
        () => null,
      );
      if (signIn && "accessToken" in signIn.data) {
        onSuccess("SIGNED_IN", { accessToken: signIn.data.accessToken, expiresIn: signIn.data.expiresIn });
      } else onSuccess("ACTIVE");
    } catch (error) {
      if (!applyFieldErrors(form, error, ["email", "password"])) message.error(errorText(error));
      // closed since the settings were loaded: refresh them so the modal says so
      if (error instanceof ApiError && error.code === "REGISTRATIONS_CLOSED") void loadSettings(0);
    } finally {
      setPending(false);
    }
  };

  return (
    <Form<SignupValues>
      form={form}
      name="signup"
      layout="vertical"
      requiredMark={false}
      onFinish={submit}
      data-testid="signup-form"
    >
      <Typography.Paragraph type="secondary">{t("auth:signup.intro")}</Typography.Paragraph>
      <Form.Item label={t("auth:email")} name="email" rules={emailRules(t)} validateFirst>
        <Input prefix={<MailOutlined />} type="email" autoComplete="email" inputMode="email" />
      </Form.Item>
      <Form.Item
        label={t("auth:passwordLabel")}
        name="password"
        rules={passwordRules(t)}
        extra={t("auth:password.hint")}
        validateFirst
      >
        <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
      </Form.Item>
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={pending} data-testid="signup-submit">
          {t("auth:signup.submit")}
        </Button>
      </Form.Item>
      <Typography.Text>
        {t("auth:signup.haveAccount")}{" "}
        <Typography.Link onClick={onLogin} data-testid="to-login">
          {t("auth:signup.backToLogin")}
        </Typography.Link>
      </Typography.Text>
    </Form>
  );
}
