import { useEffect } from "react";
import { useTranslation } from "react-i18next";

/** Sets `document.title` through the template "%s · Parlons". */
export function usePageTitle(title: string | null | undefined): void {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = title ? t("common:titleTemplate", { title }) : t("common:homeTitle");
  }, [title, t]);
}
