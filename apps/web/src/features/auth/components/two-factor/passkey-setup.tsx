import { KeyOutlined } from "@ant-design/icons";
import { Button, Form, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { TokenData } from "@/features/auth/api/auth-api";
import { passkeysSupported, registerPasskeyAtSignIn } from "@/features/auth/api/passkeys";
import { PasskeyNameField } from "./passkey-name-field";

/**
 * A sign-in that must set a second factor up, answered with a passkey: named, created by the
 * browser, registered with the ticket; the sign-in ends (no recovery codes: the passkey is kept by
 * the device). Nothing when the browser cannot create passkeys.
 */
export function PasskeySetupAtSignIn({
  ticket,
  onDone,
  onError,
}: {
  ticket: string;
  onDone: (token: TokenData) => Promise<void>;
  onError: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const [pending, setPending] = useState(false);
  if (!passkeysSupported()) return null;

  const submit = async ({ name }: { name: string }) => {
    setPending(true);
    try {
      await onDone(await registerPasskeyAtSignIn(ticket, name.trim()));
    } catch (error) {
      onError(error);
      setPending(false);
    }
  };

  return (
    <section aria-labelledby="passkey-setup-title" data-testid="passkey-setup">
      <Typography.Title level={3} id="passkey-setup-title" style={{ fontSize: 16 }}>
        {t("auth:passkey.setup.title")}
      </Typography.Title>
      <Typography.Paragraph>{t("auth:passkey.setup.hint")}</Typography.Paragraph>
      <Form
        form={form}
        name="passkey-setup"
        layout="vertical"
        requiredMark={false}
        initialValues={{ name: t("auth:passkey.setup.defaultName") }}
        onFinish={submit}
      >
        <PasskeyNameField />
        <Button type="primary" htmlType="submit" block icon={<KeyOutlined />} loading={pending}>
          {t("auth:passkey.create")}
        </Button>
      </Form>
    </section>
  );
}
