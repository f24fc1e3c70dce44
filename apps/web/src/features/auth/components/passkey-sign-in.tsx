import { KeyOutlined } from "@ant-design/icons";
import type { CurrentUser } from "@parlons/contract";
import { Alert, App, Button } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "@/lib/api-error";
import { startSession } from "@/lib/session";
import { passkeyErrorText, passkeysSupported, signInWithPasskey } from "../api/passkeys";

/**
 * "Sign in with a passkey": the browser offers this site's passkeys (no address typed); a
 * verified passkey is both factors, so the session opens at once.
 */
export function PasskeySignIn({ onSuccess }: { onSuccess: (user: CurrentUser) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  // known after the first render only: the server-rendered page has no WebAuthn
  const [supported, setSupported] = useState(false);
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  useEffect(() => setSupported(passkeysSupported()), []);
  if (!supported) return null;

  const signIn = async () => {
    setPending(true);
    setRefusal(null);
    try {
      const token = await signInWithPasskey();
      const user = await startSession(token.accessToken, token.expiresIn);
      message.success(t("auth:login.success"));
      onSuccess(user);
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) setRefusal(passkeyErrorText(error));
      else message.error(passkeyErrorText(error));
    } finally {
      setPending(false);
    }
  };

  return (
    <>
      {refusal && <Alert type="warning" showIcon role="alert" style={{ marginBottom: 12 }} title={refusal} />}
      <Button block icon={<KeyOutlined />} loading={pending} onClick={signIn} data-testid="passkey-sign-in">
        {t("auth:passkey.signIn")}
      </Button>
    </>
  );
}
