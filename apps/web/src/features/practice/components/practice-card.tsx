import { EditOutlined } from "@ant-design/icons";
import { Card, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "@/components/button-link";
import { IconTitle } from "@/components/icon-title";
import { pagePath } from "@/lib/paths";
import { useLocalePath } from "@/lib/use-locale";

/** Dashboard card: the way to the day's exercises. */
export function PracticeCard() {
  const { t } = useTranslation();
  const to = useLocalePath();
  return (
    <Card
      data-testid="practice-card"
      title={<IconTitle icon={<EditOutlined aria-hidden />}>{t("practice:dashboard.title")}</IconTitle>}
    >
      <Typography.Paragraph type="secondary">{t("practice:dashboard.body")}</Typography.Paragraph>
      <ButtonLink to={to(pagePath("practice"))} data-testid="practice-start">
        {t("practice:dashboard.start")}
      </ButtonLink>
    </Card>
  );
}
