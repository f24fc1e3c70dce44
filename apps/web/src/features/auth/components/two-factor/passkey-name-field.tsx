import { Form, Input } from "antd";
import { useTranslation } from "react-i18next";

/** The name a passkey is known by (set when it is made, changed in the profile): 1 to 60 characters. */
export function PasskeyNameField({ placeholder }: { placeholder?: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      label={t("auth:passkey.name")}
      name="name"
      rules={[
        { required: true, whitespace: true, message: t("auth:passkey.nameRequired") },
        { max: 60, message: t("auth:passkey.nameTooLong") },
      ]}
    >
      <Input maxLength={60} autoComplete="off" placeholder={placeholder} />
    </Form.Item>
  );
}
