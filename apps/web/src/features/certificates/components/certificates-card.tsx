import { SafetyCertificateOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Card, List, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { IconTitle } from "@/components/icon-title";
import { useFormat } from "@/lib/format";
import { pagePath } from "@/lib/paths";
import { useLang, useLocalePath } from "@/lib/use-locale";
import { certificateCourse, myCertificatesQuery } from "../api/certificate-queries";

/** Dashboard card: the certificates the learner earned, each a link to its page. Hidden until one is earned. */
export function CertificatesCard() {
  const { t } = useTranslation("certificates");
  const lang = useLang();
  const to = useLocalePath();
  const format = useFormat();
  const { data } = useQuery(myCertificatesQuery);
  if (!data || data.length === 0) return null;
  return (
    <Card
      data-testid="certificates-card"
      title={<IconTitle icon={<SafetyCertificateOutlined aria-hidden />}>{t("dashboard.title")}</IconTitle>}
    >
      <List
        dataSource={data}
        renderItem={(c) => (
          <List.Item
            extra={c.status === "revoked" ? <Tag color="red">{t("status.revoked")}</Tag> : undefined}
          >
            <List.Item.Meta
              title={<Link to={to(pagePath("certificate", { id: c.id }))}>{certificateCourse(c, lang)}</Link>}
              description={t("dashboard.issued", { date: format.date(c.issued_at) })}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
