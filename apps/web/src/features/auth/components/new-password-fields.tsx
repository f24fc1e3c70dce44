import { LockOutlined } from "@ant-design/icons";
import { Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { confirmRule, passwordRules } from "@/lib/form-rules";

/** New password + confirmation, with the rules of spec §5. */
export function NewPasswordFields({
  name,
  label,
  confirmLabel,
}: {
  name: string;
  label: string;
  confirmLabel: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        label={label}
        name={name}
        rules={passwordRules(t)}
        extra={t("auth:password.hint")}
        validateFirst
      >
        <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label={confirmLabel}
        name={`${name}Confirm`}
        dependencies={[name]}
        rules={[{ required: true, message: t("auth:password.required") }, confirmRule(t, name)]}
      >
        <Input.Password prefix={<LockOutlined />} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
