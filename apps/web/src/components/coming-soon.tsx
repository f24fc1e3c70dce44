import ClockCircleOutlined from "@ant-design/icons-svg/es/asn/ClockCircleOutlined";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "../lib/use-locale";
import { usePageTitle } from "../lib/use-page-title";
import { PlainIcon } from "./plain-icon";
import { ResultPage } from "./result-page";

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
    <ResultPage
      mark={<PlainIcon icon={ClockCircleOutlined} />}
      title={t("common:comingSoon.title", { page: name })}
      subtitle={t("common:comingSoon.subtitle")}
      action={{
        to: to(backTo),
        label: backTo === "/" ? t("common:actions.backHome") : t("common:actions.backToDashboard"),
      }}
      testId="coming-soon"
    />
  );
}
