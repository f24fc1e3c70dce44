import { Collapse, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { usePageTitle } from "@/lib/use-page-title";

const QUESTIONS = [1, 2, 3, 4, 5, 6] as const;

export function FaqPage() {
  const { t } = useTranslation();
  usePageTitle(t("site:faq.title"));
  return (
    <div className="container section narrow">
      <Typography.Title level={1}>{t("site:faq.title")}</Typography.Title>
      <Typography.Paragraph type="secondary">{t("site:faq.intro")}</Typography.Paragraph>
      <Collapse
        accordion
        size="large"
        items={QUESTIONS.map((n) => ({
          key: String(n),
          label: t(`site:faq.q${n}`),
          children: <Typography.Paragraph style={{ margin: 0 }}>{t(`site:faq.a${n}`)}</Typography.Paragraph>,
        }))}
      />
    </div>
  );
}
