import { Col, Form, Input } from "antd";
import { useTranslation } from "react-i18next";

/** The required French and English title fields of a course or lesson form, side by side. */
export function BilingualTitles() {
  const { t } = useTranslation();
  return (
    <>
      {(["fr", "en"] as const).map((lang) => {
        const label = t(lang === "fr" ? "courses:form.titleFr" : "courses:form.titleEn");
        return (
          <Col xs={24} md={12} key={lang}>
            <Form.Item
              name={`title_${lang}`}
              label={label}
              rules={[
                { required: true, whitespace: true, message: t("courses:form.required", { field: label }) },
              ]}
            >
              <Input maxLength={200} lang={lang} />
            </Form.Item>
          </Col>
        );
      })}
    </>
  );
}
