import { Col, Form, Input, Row } from "antd";
import { useTranslation } from "react-i18next";
import { textRules } from "../lib/text-rules";

/** The subject and text of a message written on the send page, in each language (Spanish optional). */
export function CustomMessageFields() {
  const { t } = useTranslation();
  return (
    <Row gutter={12}>
      <Col xs={24} md={12}>
        <Form.Item name="subject_fr" label={t("mail:templates.form.subjectFr")} rules={textRules(t, false)}>
          <Input maxLength={200} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="subject_en" label={t("mail:templates.form.subjectEn")} rules={textRules(t, false)}>
          <Input maxLength={200} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="body_fr" label={t("mail:templates.form.bodyFr")} rules={textRules(t, false)}>
          <Input.TextArea rows={6} maxLength={20_000} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item name="body_en" label={t("mail:templates.form.bodyEn")} rules={textRules(t, false)}>
          <Input.TextArea rows={6} maxLength={20_000} />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="subject_es"
          label={t("mail:templates.form.subjectEs")}
          extra={t("mail:send.spanishHint")}
          dependencies={["body_es"]}
          rules={textRules(t, false, "body_es")}
        >
          <Input maxLength={200} data-testid="mail-subject-es" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="body_es"
          label={t("mail:templates.form.bodyEs")}
          dependencies={["subject_es"]}
          rules={textRules(t, false, "subject_es")}
        >
          <Input.TextArea rows={6} maxLength={20_000} data-testid="mail-body-es" />
        </Form.Item>
      </Col>
    </Row>
  );
}
