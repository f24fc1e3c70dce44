import { ClockCircleOutlined } from "@ant-design/icons";
import { Result } from "antd";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "../lib/use-locale";
import { usePageTitle } from "../lib/use-page-title";
import { ButtonLink } from "./button-link";

export type PageKey =
  | "courses"
  | "coursesMore"
  | "courseDetail"
  | "courseCreate"
  | "courseEdit"
  | "lessons"
  | "lesson"
  | "pricing"
  | "plans"
  | "billing"
  | "subscriptionPayment"
  | "upgradePayment"
  | "paypal"
  | "card"
  | "protected"
  | "setting"
  | "users"
  | "userCreate"
  | "customers"
  | "roles"
  | "userEdit"
  | "mailSend"
  | "mailTemplates";

/**
 * Placeholder of a page not built yet: a real, translated state with a way back.
 * Replace the route's element by the real page when it lands.
 */
export function ComingSoon({ page, backTo = "/" }: { page: PageKey; backTo?: string }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const name = t(`common:pages.${page}`);
  usePageTitle(name);
  return (
    <Result
      icon={<ClockCircleOutlined />}
      title={<h1 className="result-title">{t("common:comingSoon.title", { page: name })}</h1>}
      subTitle={t("common:comingSoon.subtitle")}
      data-testid="coming-soon"
      extra={
        <ButtonLink to={to(backTo)} type="primary">
          {backTo === "/" ? t("common:actions.backHome") : t("common:actions.backToDashboard")}
        </ButtonLink>
      }
    />
  );
}
