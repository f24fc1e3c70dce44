import { Button, Modal, Result } from "antd";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { AuthModals } from "@/components/auth-modal-context";
import { useSettings } from "@/features/settings/api/settings-queries";
import { afterLoginPath } from "@/lib/redirect";
import { useLang } from "@/lib/use-locale";
import { LoginForm } from "./login-form";
import { SignupForm, type SignupStatus } from "./signup-form";

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
  const { open } = value;
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
    </>
  );
}
