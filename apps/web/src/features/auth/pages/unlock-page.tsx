import { Button, Result, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { useAuthModals } from "@/components/auth-modal-context";
import { usePageTitle } from "@/lib/use-page-title";
import { useUnlockAccount } from "../api/auth-api";
import { AuthCard } from "../components/auth-card";

/**
 * `/unlock/{token}`: where the mail sent when wrong passwords lock an account leads. Opening the
 * page changes nothing (a mail scanner following the link unlocks nothing); the button unlocks.
 */
export function UnlockPage() {
  const { t } = useTranslation();
  const token = useParams().token ?? "";
  const modals = useAuthModals();
  usePageTitle(t("auth:unlock.title"));
  const unlock = useUnlockAccount(token);

  if (unlock.isSuccess || unlock.isError) {
    const done = unlock.isSuccess;
    return (
      <AuthCard title={t("auth:unlock.title")}>
        <Result
          status={done ? "success" : "error"}
          title={t(done ? "auth:unlock.successTitle" : "auth:unlock.failedTitle")}
          subTitle={t(done ? "auth:unlock.success" : "auth:unlock.failed")}
          data-testid={done ? "unlock-done" : "unlock-failed"}
          extra={
            done && (
              <Button type="primary" onClick={() => modals.show("login")} data-testid="unlock-login">
                {t("auth:login.submit")}
              </Button>
            )
          }
        />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("auth:unlock.title")}>
      <Typography.Paragraph>{t("auth:unlock.intro")}</Typography.Paragraph>
      <Button
        type="primary"
        block
        loading={unlock.isPending}
        onClick={() => unlock.mutate()}
        data-testid="unlock-confirm"
      >
        {t("auth:unlock.submit")}
      </Button>
    </AuthCard>
  );
}
