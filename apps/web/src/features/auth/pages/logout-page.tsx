import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { FullPageSpinner } from "@/components/full-page-spinner";
import { logout } from "@/lib/session";
import { useLocalePath } from "@/lib/use-locale";

/** `/logout`: ends the session at once and returns home. */
export function LogoutPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const to = useLocalePath();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    void logout().then(() => navigate(to("/"), { replace: true }));
  }, [navigate, to]);
  return <FullPageSpinner label={t("auth:logout.pending")} />;
}
