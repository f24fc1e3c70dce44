import type { TotpSetup } from "@parlons/contract";
import { Typography } from "antd";
import { useTranslation } from "react-i18next";
import { CodeForm, type CodeFormProps } from "./code-form";

/** Scan the QR code (or type the key), then confirm with the app's first code. */
export function TotpSetupSteps({
  setup,
  ...form
}: { setup: TotpSetup } & Omit<CodeFormProps, "kind" | "name">) {
  const { t } = useTranslation();
  return (
    <div data-testid="totp-setup">
      <Typography.Paragraph>{t("auth:twoFactor.setup.scan")}</Typography.Paragraph>
      <img
        src={setup.qrCode}
        alt={t("auth:twoFactor.setup.qrAlt")}
        width={200}
        height={200}
        style={{ display: "block", marginBottom: 12 }}
      />
      <Typography.Paragraph>
        {t("auth:twoFactor.setup.orType")}{" "}
        <Typography.Text code copyable data-testid="totp-secret">
          {setup.secret}
        </Typography.Text>
      </Typography.Paragraph>
      <CodeForm kind="totp" name="totp-setup" {...form} />
    </div>
  );
}
