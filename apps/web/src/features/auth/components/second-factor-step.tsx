import { KeyOutlined } from "@ant-design/icons";
import type { CurrentUser, SecondFactorChallenge, TotpSetup } from "@parlons/contract";
import { Alert, App, Button, Divider, Flex, Spin, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, errorText } from "@/lib/api-error";
import { startSession } from "@/lib/session";
import {
  confirmSetupAtSignIn,
  startSetupAtSignIn,
  type TokenData,
  verifySecondFactor,
} from "../api/auth-api";
import { passkeyErrorText, passkeysSupported, verifyWithPasskey } from "../api/passkeys";
import { CodeForm } from "./two-factor/code-form";
import { PasskeySetupAtSignIn } from "./two-factor/passkey-setup";
import { RecoveryCodes } from "./two-factor/recovery-codes";
import { TotpSetupSteps } from "./two-factor/totp-setup";

export interface SecondFactorStepProps {
  challenge: SecondFactorChallenge;
  onSuccess: (user: CurrentUser) => void;
  /** Back to the first step (the ticket expired, or the reader chose to). */
  onRestart: (reason?: "expired") => void;
}

/**
 * The second step of a sign-in: a code of the authenticator app, a recovery code or a passkey; or,
 * for staff who must have one, setting one up: a passkey, or the app (its recovery codes shown
 * before the session starts).
 */
export function SecondFactorStep({ challenge, onSuccess, onRestart }: SecondFactorStepProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [method, setMethod] = useState<"totp" | "recovery">("totp");
  const hasApp = challenge.methods.includes("totp");
  const hasPasskey = challenge.methods.includes("passkey");
  const [usingPasskey, setUsingPasskey] = useState(false);
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [done, setDone] = useState<{ token: TokenData; codes: string[] } | null>(null);
  const [starting, setStarting] = useState(false);

  const failed = (error: unknown) => {
    if (error instanceof ApiError && error.code === "CHALLENGE_INVALID") onRestart("expired");
    else message.error(passkeyErrorText(error));
  };

  const [setupError, setSetupError] = useState<unknown>(null);
  useEffect(() => {
    if (!challenge.setup) return;
    let live = true;
    startSetupAtSignIn(challenge.ticket)
      .then((res) => live && setSetup(res.data))
      .catch((error: unknown) => live && setSetupError(error));
    return () => {
      live = false;
    };
  }, [challenge.setup, challenge.ticket]);

  const finish = async (token: TokenData) => {
    const user = await startSession(token.accessToken, token.expiresIn);
    message.success(t("auth:login.success"));
    onSuccess(user);
  };

  const back = (
    <Button type="link" onClick={() => onRestart()} style={{ paddingInline: 0 }}>
      {t("auth:twoFactor.back")}
    </Button>
  );

  if (done) {
    return (
      <section aria-labelledby="second-factor-title">
        <Typography.Title level={2} id="second-factor-title" className="auth-step-title">
          {t("auth:twoFactor.setup.doneTitle")}
        </Typography.Title>
        <RecoveryCodes codes={done.codes} />
        <Button
          type="primary"
          block
          style={{ marginTop: 16 }}
          loading={starting}
          data-testid="second-factor-continue"
          onClick={async () => {
            setStarting(true);
            try {
              await finish(done.token);
            } catch (error) {
              message.error(errorText(error));
              setStarting(false);
            }
          }}
        >
          {t("auth:twoFactor.setup.continue")}
        </Button>
      </section>
    );
  }

  if (challenge.setup) {
    return (
      <section aria-labelledby="second-factor-title" data-testid="second-factor-step">
        <Typography.Title level={2} id="second-factor-title" className="auth-step-title">
          {t("auth:twoFactor.setup.requiredTitle")}
        </Typography.Title>
        <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t("auth:twoFactor.setup.required")} />
        <PasskeySetupAtSignIn ticket={challenge.ticket} onDone={finish} onError={failed} />
        {passkeysSupported() && <Divider plain>{t("auth:twoFactor.setup.or")}</Divider>}
        <Typography.Title level={3} style={{ fontSize: 16 }}>
          {t("auth:twoFactor.setup.appTitle")}
        </Typography.Title>
        {setupError ? (
          <Alert type="error" showIcon role="alert" title={errorText(setupError)} />
        ) : setup ? (
          <TotpSetupSteps
            setup={setup}
            submitLabel={t("auth:twoFactor.setup.confirm")}
            onError={failed}
            onSubmit={async (code) => {
              const res = await confirmSetupAtSignIn(challenge.ticket, code);
              const { recoveryCodes, ...token } = res.data;
              setDone({ token, codes: recoveryCodes });
            }}
          />
        ) : (
          <Spin />
        )}
        {back}
      </section>
    );
  }

  const answerWithPasskey = async () => {
    setUsingPasskey(true);
    try {
      await finish(await verifyWithPasskey(challenge.ticket));
    } catch (error) {
      failed(error);
    } finally {
      setUsingPasskey(false);
    }
  };
  const passkeyButton = hasPasskey && (
    <Button
      block
      type={hasApp ? "default" : "primary"}
      icon={<KeyOutlined />}
      loading={usingPasskey}
      onClick={answerWithPasskey}
      style={{ marginTop: hasApp ? 12 : 0 }}
      data-testid="second-factor-passkey"
    >
      {t("auth:passkey.useForStep")}
    </Button>
  );

  if (!hasApp) {
    return (
      <section aria-labelledby="second-factor-title" data-testid="second-factor-step">
        <Typography.Title level={2} id="second-factor-title" className="auth-step-title">
          {t("auth:twoFactor.stepTitle")}
        </Typography.Title>
        <Typography.Paragraph>{t("auth:passkey.stepIntro")}</Typography.Paragraph>
        {passkeyButton}
        <Flex style={{ marginTop: 12 }}>{back}</Flex>
      </section>
    );
  }

  const canRecover = challenge.methods.includes("recovery");
  return (
    <section aria-labelledby="second-factor-title" data-testid="second-factor-step">
      <Typography.Title level={2} id="second-factor-title" className="auth-step-title">
        {t("auth:twoFactor.stepTitle")}
      </Typography.Title>
      <Typography.Paragraph>
        {t(method === "totp" ? "auth:twoFactor.stepIntro" : "auth:twoFactor.recoveryIntro")}
      </Typography.Paragraph>
      <CodeForm
        key={method}
        kind={method}
        name={`second-factor-${method}`}
        submitLabel={t("auth:twoFactor.verify")}
        onError={failed}
        onSubmit={async (code) => {
          const res = await verifySecondFactor({ ticket: challenge.ticket, method, code });
          await finish(res.data);
        }}
      />
      {passkeyButton}
      <Flex justify="space-between" wrap gap={8} style={{ marginTop: 12 }}>
        {back}
        {canRecover && (
          <Button
            type="link"
            style={{ paddingInline: 0 }}
            onClick={() => setMethod(method === "totp" ? "recovery" : "totp")}
            data-testid="second-factor-switch"
          >
            {t(method === "totp" ? "auth:twoFactor.useRecovery" : "auth:twoFactor.useApp")}
          </Button>
        )}
      </Flex>
    </section>
  );
}
