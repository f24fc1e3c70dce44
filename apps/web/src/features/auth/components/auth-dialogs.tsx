import { Button, Modal, Result } from "antd";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { AuthModals } from "@/components/auth-modal-context";
import { useSettings } from "@/features/settings/api/settings-queries";
import { pagePath } from "@/lib/paths";
import { afterLoginPath } from "@/lib/redirect";
import { startSession } from "@/lib/session";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { AuthResult } from "./auth-result";
import { LoginForm } from "./login-form";
import { SignupForm, type SignupSession, type SignupStatus } from "./signup-form";

/** The login and signup dialogs themselves: their own chunk, loaded when one first opens. */
export function AuthDialogs({
  value,
  signupStatus,
  setSignupStatus,
}: {
  value: AuthModals;
  signupStatus: SignupStatus | null;
  setSignupStatus: (status: SignupStatus | null) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const lang = useLang();
  const to = useLocalePath();
  const { open } = value;
  // the new learner's session, started as they leave the success modal
  const session = useRef<SignupSession | null>(null);
  const [starting, setStarting] = useState(false);
  const enter = async (next?: string) => {
    const tokens = session.current;
    session.current = null;
    if (!tokens) return;
    setStarting(true);
    try {
      await startSession(tokens.accessToken, tokens.expiresIn);
      if (next) navigate(next);
    } catch {
      value.show("login");
    } finally {
      setStarting(false);
    }
  };
  const closeSignup = () => {
    void enter();
    value.close();
  };
  const registrationsClosed = useSettings().data?.registrations_open === false;
  return (
    <>
      <Modal
        open={open === "login"}
        title={t("auth:login.title")}
        onCancel={value.close}
        footer={null}
        destroyOnHidden
        width={440}
      >
        <LoginForm
          idPrefix="login-modal"
          onCreateAccount={() => value.show("signup")}
          onSuccess={() => {
            value.close();
            navigate(afterLoginPath(null, lang));
          }}
        />
      </Modal>
      <Modal
        open={open === "signup"}
        title={signupStatus ? t("auth:signup.successTitle") : t("auth:signup.title")}
        onCancel={closeSignup}
        footer={null}
        destroyOnHidden
        width={440}
      >
        {signupStatus ? (
          <Result
            status="success"
            title={t("auth:signup.successTitle")}
            subTitle={
              signupStatus === "SIGNED_IN"
                ? t("auth:signup.successSignedIn")
                : signupStatus === "ACTIVE"
                  ? t("auth:signup.successActive")
                  : t("auth:signup.successPending")
            }
            data-testid="signup-success"
            data-status={signupStatus}
            extra={
              signupStatus === "SIGNED_IN" ? (
                <Button
                  type="primary"
                  loading={starting}
                  onClick={() => void enter(to(pagePath("welcome")))}
                  data-testid="signup-start"
                >
                  {t("auth:signup.start")}
                </Button>
              ) : (
                <Button type="primary" onClick={() => value.show("login")}>
                  {t("auth:signup.loginNow")}
                </Button>
              )
            }
          />
        ) : registrationsClosed ? (
          <AuthResult
            status="info"
            title={t("auth:signup.closedTitle")}
            subTitle={t("auth:signup.closedText")}
            testId="signup-closed"
            action={{ label: t("auth:signup.loginNow"), onClick: () => value.show("login") }}
          />
        ) : (
          <SignupForm
            onSuccess={(status, tokens) => {
              session.current = tokens ?? null;
              setSignupStatus(status);
            }}
            onLogin={() => value.show("login")}
          />
        )}
      </Modal>
    </>
  );
}
