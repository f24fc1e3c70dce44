import { MailOutlined } from "@ant-design/icons";
import { Button, Card, Col, Form, Input, Row, Skeleton, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { useSettings } from "@/features/settings/api/settings-queries";
import { usePageTitle } from "@/lib/use-page-title";

interface ContactValues {
  name: string;
  subject: string;
  message: string;
}

/** Builds the mailto: link the contact form opens (no backend). */
export function mailtoHref(to: string, values: ContactValues): string {
  const body = `${values.message}\n\n— ${values.name}`;
  return `mailto:${to}?subject=${encodeURIComponent(values.subject)}&body=${encodeURIComponent(body)}`;
}

export function ContactPage() {
  const { t } = useTranslation();
  usePageTitle(t("site:contact.title"));
  const settings = useSettings();
  // the address staff set in the settings (the built-in one only if they cannot be loaded)
  const address = settings.data?.contact_email ?? t("site:contact.email");
  const addressKnown = settings.data !== undefined || settings.isError;
  const required = [{ required: true, whitespace: true, message: t("site:contact.required") }];

  return (
    <div className="container section">
      <Typography.Title level={1}>{t("site:contact.title")}</Typography.Title>
      <Typography.Paragraph type="secondary">{t("site:contact.intro")}</Typography.Paragraph>
      <Row gutter={[24, 24]}>
        <Col xs={24} md={9}>
          <Card>
            <Typography.Title level={2} className="card-heading">
              {t("site:contact.emailLabel")}
            </Typography.Title>
            {addressKnown ? (
              <Typography.Link href={`mailto:${address}`} data-testid="contact-email">
                <MailOutlined /> {address}
              </Typography.Link>
            ) : (
              <Skeleton.Input active size="small" />
            )}
          </Card>
        </Col>
        <Col xs={24} md={15}>
          <Card>
            <Typography.Title level={2} className="card-heading">
              {t("site:contact.formTitle")}
            </Typography.Title>
            <Form<ContactValues>
              layout="vertical"
              name="contact"
              requiredMark={false}
              onFinish={(values) => window.location.assign(mailtoHref(address, values))}
            >
              <Form.Item label={t("site:contact.name")} name="name" rules={required}>
                <Input autoComplete="name" />
              </Form.Item>
              <Form.Item label={t("site:contact.subject")} name="subject" rules={required}>
                <Input />
              </Form.Item>
              <Form.Item label={t("site:contact.message")} name="message" rules={required}>
                <Input.TextArea rows={5} />
              </Form.Item>
              <Button type="primary" htmlType="submit" icon={<MailOutlined />}>
                {t("site:contact.send")}
              </Button>
              <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
                {t("site:contact.note")}
              </Typography.Paragraph>
            </Form>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
