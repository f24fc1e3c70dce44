import { type EmailTemplate, type EmailTemplateBody, TRANSACTIONAL_SLUGS } from "@parlons/contract";
import { Col, Form, Input, Row } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { EditorFormProps } from "@/components/admin-list-page";
import { FormFooter } from "@/components/form-footer";
import { SwitchItem } from "@/components/switch-item";
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

interface TextField {
  name: keyof EmailTemplateBody;
  label: string;
  body: boolean;
  hint?: string;
  /** An optional language's other text: one given, both are required. */
  pairedWith?: keyof EmailTemplateBody;
}

/** The subject and text of each language, two to a row. */
const TEXT_FIELDS: TextField[] = [
  { name: "subject_fr", label: "subjectFr", body: false },
  { name: "subject_en", label: "subjectEn", body: false },
  { name: "body_fr", label: "bodyFr", body: true, hint: "bodyHint" },
  { name: "body_en", label: "bodyEn", body: true },
  { name: "subject_es", label: "subjectEs", body: false, hint: "spanishHint", pairedWith: "body_es" },
  { name: "body_es", label: "bodyEs", body: true, pairedWith: "subject_es" },
];

/** A body is checked again when the slug changes (`{{action_url}}`), a paired text with its pair. */
function dependenciesOf(field: TextField): string[] | undefined {
  const names = [...(field.body ? ["slug"] : []), ...(field.pairedWith ? [field.pairedWith] : [])];
  return names.length ? names : undefined;
}

/** Create or edit a template, with the variables list and a live preview of every language. */
export function TemplateForm({ template, onSaved, onCancel }: EditorFormProps<EmailTemplate, "template">) {
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
        {TEXT_FIELDS.map((field) => (
          <Col xs={24} sm={12} key={field.name}>
            <Form.Item
              name={field.name}
              label={t(`mail:templates.form.${field.label}`)}
              extra={field.hint && t(`mail:templates.form.${field.hint}`)}
              dependencies={dependenciesOf(field)}
              rules={textRules(t, field.body, field.pairedWith)}
            >
              {field.body ? <Input.TextArea rows={8} maxLength={20_000} /> : <Input maxLength={200} />}
            </Form.Item>
          </Col>
        ))}
      </Row>
      <VariablesHelp />
      <SwitchItem name="active" label={t("mail:templates.form.active")} />
      <MailPreview
        texts={texts ?? {}}
        transactional={(TRANSACTIONAL_SLUGS as readonly string[]).includes(texts?.slug ?? "")}
      />
      <FormFooter
        error={failure}
        pending={save.isPending}
        testId="template-form"
        ids={{ submit: "template-save" }}
        submitLabel={t("mail:templates.form.save")}
        cancelLabel={t("mail:templates.form.cancel")}
        onCancel={onCancel}
      />
    </Form>
  );
}
