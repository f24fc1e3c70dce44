import { type EmailTemplate, type EmailTemplateBody, TRANSACTIONAL_SLUGS } from "@parlons/contract";
import { Alert, Button, Col, Form, Input, Row, Space, Switch } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, errorText } from "@/lib/api-error";
import { applyFieldErrors } from "@/lib/form-rules";
import { useSaveTemplate } from "../api/templates-api";
import { textRules } from "../lib/text-rules";
import { MailPreview } from "./mail-preview";
import { VariablesHelp } from "./variables-help";

const EMPTY: EmailTemplateBody = {
  name: "",
  slug: "",
  subject_fr: "",
  subject_en: "",
  body_fr: "",
  body_en: "",
  subject_es: "",
  body_es: "",
  active: true,
};
const FIELDS = Object.keys(EMPTY);

const toValues = (template: EmailTemplate): EmailTemplateBody => ({
  name: template.name,
  slug: template.slug,
  subject_fr: template.subject_fr,
  subject_en: template.subject_en,
  body_fr: template.body_fr,
  body_en: template.body_en,
  subject_es: template.subject_es,
  body_es: template.body_es,
  active: template.active,
});

/** Create or edit a template, with the variables list and a live preview of every language. */
export function TemplateForm({
  template,
  onSaved,
  onCancel,
}: {
  template: EmailTemplate | null;
  onSaved: (template: EmailTemplate) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EmailTemplateBody>();
  const save = useSaveTemplate();
  const [failure, setFailure] = useState<string | null>(null);
  const texts = Form.useWatch([], form) as Partial<EmailTemplateBody> | undefined;

  const submit = (values: EmailTemplateBody) => {
    setFailure(null);
    save.mutate(
      { id: template?.id ?? null, body: values },
      {
        onSuccess: onSaved,
        onError: (error) => {
          if (error instanceof ApiError && error.code === "TEMPLATE_SLUG_TAKEN") {
            form.setFields([{ name: "slug", errors: [errorText(error)] }]);
          } else if (!applyFieldErrors(form, error, FIELDS)) {
            setFailure(errorText(error));
          }
        },
      },
    );
  };

  return (
    <Form<EmailTemplateBody>
      form={form}
      layout="vertical"
      name="template-form"
      data-testid="template-form"
      initialValues={template ? toValues(template) : EMPTY}
      onFinish={submit}
      requiredMark="optional"
    >
      <Row gutter={12}>
        <Col xs={24} sm={12}>
          <Form.Item
            name="name"
            label={t("mail:templates.form.name")}
            rules={[{ required: true, whitespace: true, message: t("mail:templates.form.required") }]}
          >
            <Input maxLength={120} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="slug"
            label={t("mail:templates.form.slug")}
            extra={t("mail:templates.form.slugHint")}
            rules={[
              { required: true, message: t("mail:templates.form.required") },
              { pattern: /^[a-z0-9]+(?:-[a-z0-9]+)*$/, message: t("mail:templates.form.slugFormat") },
            ]}
          >
            <Input maxLength={80} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="subject_fr" label={t("mail:templates.form.subjectFr")} rules={textRules(t, false)}>
            <Input maxLength={200} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="subject_en" label={t("mail:templates.form.subjectEn")} rules={textRules(t, false)}>
            <Input maxLength={200} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="body_fr"
            label={t("mail:templates.form.bodyFr")}
            extra={t("mail:templates.form.bodyHint")}
            dependencies={["slug"]}
            rules={textRules(t, true)}
          >
            <Input.TextArea rows={8} maxLength={20_000} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="body_en"
            label={t("mail:templates.form.bodyEn")}
            dependencies={["slug"]}
            rules={textRules(t, true)}
          >
            <Input.TextArea rows={8} maxLength={20_000} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="subject_es"
            label={t("mail:templates.form.subjectEs")}
            extra={t("mail:templates.form.spanishHint")}
            dependencies={["body_es"]}
            rules={textRules(t, false, "body_es")}
          >
            <Input maxLength={200} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="body_es"
            label={t("mail:templates.form.bodyEs")}
            dependencies={["slug", "subject_es"]}
            rules={textRules(t, true, "subject_es")}
          >
            <Input.TextArea rows={8} maxLength={20_000} />
          </Form.Item>
        </Col>
      </Row>
      <VariablesHelp />
      <Form.Item name="active" label={t("mail:templates.form.active")} valuePropName="checked">
        <Switch />
      </Form.Item>
      <MailPreview
        texts={texts ?? {}}
        transactional={(TRANSACTIONAL_SLUGS as readonly string[]).includes(texts?.slug ?? "")}
      />
      {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 16 }} />}
      <Space>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="template-save">
          {t("mail:templates.form.save")}
        </Button>
        <Button onClick={onCancel}>{t("mail:templates.form.cancel")}</Button>
      </Space>
    </Form>
  );
}
