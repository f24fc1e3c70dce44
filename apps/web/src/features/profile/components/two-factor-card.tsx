import type { TotpSetup } from "@parlons/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Modal, Space, Spin, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/load-error";
import { CodeForm } from "@/features/auth/components/two-factor/code-form";
import { RecoveryCodes } from "@/features/auth/components/two-factor/recovery-codes";
import { TotpSetupSteps } from "@/features/auth/components/two-factor/totp-setup";
import { errorText } from "@/lib/api-error";
import { formatDate } from "@/lib/format";
import { useLang } from "@/lib/use-locale";
import {
  disableTotp,
  enableTotp,
  renewRecoveryCodes,
  startTotpSetup,
  twoFactorQuery,
} from "../api/two-factor";

type Dialog = "setup" | "disable" | "renew" | null;

/**
 * Profile: whether a second step protects the account (the authenticator app, passkeys or both),
 * the app (set up, turned off) and its recovery codes.
 */
export function TwoFactorCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const lang = useLang();
  const queryClient = useQueryClient();
  const status = useQuery(twoFactorQuery);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [opening, setOpening] = useState(false);

  const refresh = () => queryClient.invalidateQueries({ queryKey: twoFactorQuery.queryKey });
  const close = () => {
    setDialog(null);
    setSetup(null);
    setCodes(null);
  };
  const openSetup = async () => {
    setOpening(true);
    try {
      setSetup(await startTotpSetup());
      setDialog("setup");
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setOpening(false);
    }
  };
  const failed = (error: unknown) => message.error(errorText(error));
  const disable = async (code: string) => {
    await disableTotp(code);
    message.success(t("auth:twoFactor.card.disabled"));
    close();
    await refresh();
  };
  const renew = async (code: string) => {
    setCodes(await renewRecoveryCodes(code));
    await refresh();
  };

  const title = (
    <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }} id="two-factor-title">
      {t("auth:twoFactor.card.title")}
    </Typography.Title>
  );
  if (status.isError)
    return (
      <Card className="narrow-card" title={title}>
        <LoadError query={status} compact />
      </Card>
    );
  const data = status.data;
  // the authenticator app's own switch; a passkey is a second factor too
  const appOn = data?.totp.enabled ?? false;
  const passkeys = data?.passkeys ?? 0;
  const protectedNow = appOn || passkeys > 0;
  const summary = !data
    ? ""
    : appOn && data.totp.enabledAt
      ? [
          t("auth:twoFactor.card.since", { date: formatDate(data.totp.enabledAt, lang) }),
          passkeys > 0 ? t("auth:twoFactor.card.alsoPasskeys", { count: passkeys }) : "",
        ].join(" ")
      : passkeys > 0
        ? `${t("auth:twoFactor.card.passkeysOnly", { count: passkeys })} ${t("auth:twoFactor.card.addApp")}`
        : t("auth:twoFactor.card.intro");

  return (
    <Card className="narrow-card" title={title} data-testid="two-factor-card">
      {!data ? (
        <Spin />
      ) : (
        <>
          <Typography.Paragraph>
            <Tag color={protectedNow ? "green" : "default"} data-testid="two-factor-state">
              {t(protectedNow ? "auth:twoFactor.card.on" : "auth:twoFactor.card.off")}
            </Tag>{" "}
            <span data-testid="two-factor-summary">{summary.trim()}</span>
          </Typography.Paragraph>
          {appOn && (
            <Typography.Paragraph data-testid="recovery-left">
              {t("auth:twoFactor.card.recoveryLeft", { count: data.recoveryCodesLeft })}
            </Typography.Paragraph>
          )}
          {data.required && (
            <Typography.Paragraph type="secondary">{t("auth:twoFactor.card.required")}</Typography.Paragraph>
          )}
          <Space wrap>
            {appOn ? (
              <>
                <Button onClick={() => setDialog("renew")} data-testid="two-factor-renew">
                  {t("auth:twoFactor.card.renew")}
                </Button>
                {/* staff who must keep a second factor may turn the app off when a passkey remains */}
                {(!data.required || passkeys > 0) && (
                  <Button danger onClick={() => setDialog("disable")} data-testid="two-factor-disable">
                    {t("auth:twoFactor.card.disable")}
                  </Button>
                )}
              </>
            ) : (
              <Button type="primary" onClick={openSetup} loading={opening} data-testid="two-factor-setup">
                {t("auth:twoFactor.card.setup")}
              </Button>
            )}
          </Space>
        </>
      )}

      <Modal
        open={dialog !== null}
        onCancel={close}
        title={t(`auth:twoFactor.card.dialog.${dialog ?? "setup"}`)}
        footer={
          codes ? (
            <Button type="primary" onClick={close} data-testid="recovery-codes-done">
              {t("auth:twoFactor.card.saved")}
            </Button>
          ) : null
        }
        destroyOnHidden
        maskClosable={!codes}
      >
        {codes ? (
          <RecoveryCodes codes={codes} />
        ) : dialog === "setup" && setup ? (
          <TotpSetupSteps
            setup={setup}
            submitLabel={t("auth:twoFactor.setup.confirm")}
            onError={failed}
            onSubmit={async (code) => {
              setCodes(await enableTotp(code));
              message.success(t("auth:twoFactor.card.enabled"));
              await refresh();
            }}
          />
        ) : dialog === "disable" || dialog === "renew" ? (
          <CodeForm
            key={dialog}
            kind="any"
            name={`two-factor-${dialog}`}
            submitLabel={t(`auth:twoFactor.card.${dialog}`)}
            extra={t(
              dialog === "disable" ? "auth:twoFactor.card.confirmHint" : "auth:twoFactor.card.renewHint",
            )}
            onError={failed}
            onSubmit={dialog === "disable" ? disable : renew}
          />
        ) : null}
      </Modal>
    </Card>
  );
}
