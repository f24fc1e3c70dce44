import { Button, Modal, Result } from "antd";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { type AuthModal, AuthModalContext, type AuthModals } from "../../../components/auth-modal-context";
import { afterLoginPath } from "../../../lib/redirect";
import { useSettings } from "../../../lib/settings-api";
import { useLang } from "../../../lib/use-locale";
import { LoginForm } from "./login-form";
import { SignupForm, type SignupStatus } from "./signup-form";

/**
 * Login and signup modals of the public layout (spec §4): opening one closes the other,
 * both close on any route change, closing signup clears its success state.
 * A navigation may ask for one through `state.authModal` (e.g. `/register_old`).
 */
export function AuthModalsProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const lang = useLang();
  const [open, setOpen] = useState<AuthModal>(null);
  const [signupStatus, setSignupStatus] = useState<SignupStatus | null>(null);
  const registrationsClosed = useSettings().data?.registrations_open === false;

  const requested = (location.state as { authModal?: AuthModal } | null)?.authModal ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: every navigation (location.key) closes the modals
  useEffect(() => {
    setOpen(requested);
    setSignupStatus(null);
  }, [location.key, requested]);

  const value = useMemo<AuthModals>(
    () => ({
      open,
      show: (modal) => {
        setSignupStatus(null);
        setOpen(modal);
      },
      close: () => {
        setSignupStatus(null);
        setOpen(null);
      },
    }),
    [open],
  );

  return (
    <AuthModalContext.Provider value={value}>
      {children}
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
        onCancel={value.close}
        footer={null}
        destroyOnHidden
        width={440}
      >
        {signupStatus ? (
          <Result
            status="success"
            title={t("auth:signup.successTitle")}
            subTitle={
              signupStatus === "ACTIVE" ? t("auth:signup.successActive") : t("auth:signup.successPending")
            }
            data-testid="signup-success"
            extra={
              <Button type="primary" onClick={() => value.show("login")}>
                {t("auth:signup.loginNow")}
              </Button>
            }
          />
        ) : registrationsClosed ? (
          <Result
            status="info"
            title={t("auth:signup.closedTitle")}
            subTitle={t("auth:signup.closedText")}
            data-testid="signup-closed"
            extra={
              <Button type="primary" onClick={() => value.show("login")}>
                {t("auth:signup.loginNow")}
              </Button>
            }
          />
        ) : (
          <SignupForm onSuccess={setSignupStatus} onLogin={() => value.show("login")} />
        )}
      </Modal>
    </AuthModalContext.Provider>
  );
}
