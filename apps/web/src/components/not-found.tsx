import { useTranslation } from "react-i18next";
import { useLocalePath } from "../lib/use-locale";
import { usePageTitle } from "../lib/use-page-title";
import { ResultPage } from "./result-page";

export function NotFoundPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  usePageTitle(t("common:notFound.title"));
  return (
    <ResultPage
      mark="404"
      title={t("common:notFound.title")}
      subtitle={t("common:notFound.subtitle")}
      action={{ to: to("/"), label: t("common:actions.backHome") }}
      testId="not-found"
    />
  );
}
