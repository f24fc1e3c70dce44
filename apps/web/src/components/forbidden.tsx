import { Result } from "antd";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "../lib/use-locale";
import { usePageTitle } from "../lib/use-page-title";
import { ButtonLink } from "./button-link";

export function Forbidden() {
  const { t } = useTranslation();
  const to = useLocalePath();
  usePageTitle(t("common:forbidden.title"));
  return (
    <Result
      status="403"
      title={<h1 className="result-title">{t("common:forbidden.title")}</h1>}
      subTitle={t("common:forbidden.subtitle")}
      data-testid="forbidden"
      extra={
        <ButtonLink to={to("/dashboard")} type="primary">
          {t("common:actions.backToDashboard")}
        </ButtonLink>
      }
    />
  );
}
