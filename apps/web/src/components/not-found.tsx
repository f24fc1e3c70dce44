import { Result } from "antd";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "../lib/use-locale";
import { usePageTitle } from "../lib/use-page-title";
import { ButtonLink } from "./button-link";

export function NotFoundPage() {
  const { t } = useTranslation();
  const to = useLocalePath();
  usePageTitle(t("common:notFound.title"));
  return (
    <Result
      status="404"
      title={<h1 className="result-title">{t("common:notFound.title")}</h1>}
      subTitle={t("common:notFound.subtitle")}
      data-testid="not-found"
      extra={
        <ButtonLink to={to("/")} type="primary">
          {t("common:actions.backHome")}
        </ButtonLink>
      }
    />
  );
}
