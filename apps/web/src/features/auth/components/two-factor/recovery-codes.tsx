import { CopyOutlined, DownloadOutlined } from "@ant-design/icons";
import { Alert, App, Button, Space, Typography } from "antd";
import { useTranslation } from "react-i18next";

/** The recovery codes, shown once: the reader copies or downloads them before going on. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const text = `${t("auth:twoFactor.recovery.fileTitle")}\n\n${codes.join("\n")}\n`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join("\n"));
      message.success(t("auth:twoFactor.recovery.copied"));
    } catch {
      message.error(t("auth:twoFactor.recovery.copyFailed"));
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "parlons-recovery-codes.txt";
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  return (
    <div data-testid="recovery-codes">
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title={t("auth:twoFactor.recovery.title")}
        description={t("auth:twoFactor.recovery.once")}
      />
      <ol className="recovery-codes" aria-label={t("auth:twoFactor.recovery.title")}>
        {codes.map((code) => (
          <li key={code}>
            <Typography.Text code>{code}</Typography.Text>
          </li>
        ))}
      </ol>
      <Space wrap>
        <Button icon={<CopyOutlined />} onClick={copy}>
          {t("auth:twoFactor.recovery.copy")}
        </Button>
        <Button icon={<DownloadOutlined />} onClick={download}>
          {t("auth:twoFactor.recovery.download")}
        </Button>
      </Space>
    </div>
  );
}
