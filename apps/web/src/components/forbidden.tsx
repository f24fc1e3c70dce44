import { useTranslation } from "react-i18next";
import { pagePath } from "@/lib/paths";
import { useLocalePath } from "../lib/use-locale";
import { usePageTitle } from "../lib/use-page-title";
import { ResultPage } from "./result-page";

export function Forbidden() {
  const { t } = useTranslation();
  const to = useLocalePath();
  usePageTitle(t("common:forbidden.title"));
  return (
    <ResultPage
      mark="403"
      title={t("common:forbidden.title")}
      subtitle={t("common:forbidden.subtitle")}
      action={{ to: to(pagePath("dashboard")), label: t("common:actions.backToDashboard") }}
      testId="forbidden"
    />
  );
}
