import { LockOutlined } from "@ant-design/icons";
import { App, Button, Card, Form, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "@/lib/api-error";
import { applyFieldErrors } from "@/lib/form-rules";
import { usePageTitle } from "@/lib/use-page-title";
import { changePassword } from "../api/auth-api";
import { NewPasswordFields } from "../components/new-password-fields";

interface Values {
  currentPassword: string;
  newPassword: string;
}

/** `/change-password` (signed in). */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [pending, setPending] = useState(false);
  usePageTitle(t("auth:change.title"));

  const submit = async (values: Values) => {
    setPending(true);
    try {
      await changePassword(values.currentPassword, values.newPassword);
      message.success(t("auth:change.success"));
      form.resetFields();
    } catch (error) {
      if (error instanceof Error && "code" in error && error.code === "WRONG_PASSWORD") {
        form.setFields([{ name: "currentPassword", errors: [errorText(error)] }]);
      } else if (!applyFieldErrors(form, error, ["currentPassword", "newPassword"])) {
        message.error(errorText(error));
      }
    } finally {
      setPending(false);
    }
  };

  return (
    <Card className="narrow-card">
      <Typography.Title level={1} className="page-title">
        {t("auth:change.title")}
      </Typography.Title>
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit} name="change-password">
        <Form.Item
          label={t("auth:change.current")}
          name="currentPassword"
          rules={[{ required: true, message: t("auth:password.required") }]}
        >
          <Input.Password prefix={<LockOutlined />} autoComplete="current-password" />
        </Form.Item>
        <NewPasswordFields
          name="newPassword"
          label={t("auth:change.new")}
          confirmLabel={t("auth:change.confirm")}
        />
        <Button type="primary" htmlType="submit" loading={pending}>
          {t("auth:change.submit")}
        </Button>
      </Form>
    </Card>
  );
}
