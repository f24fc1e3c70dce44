import {
  langPrefix,
  type MailTextFields,
  type MailValues,
  renderMail,
  SAMPLE_MAIL_VALUES,
} from "@parlons/contract";
import { Alert, Tabs, Typography } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { PREVIEW_LANGS, type PreviewLang, previewOf } from "../lib/preview-texts";

function sampleValues(lang: PreviewLang): MailValues {
  const site = `${window.location.origin}${langPrefix(lang)}`;
  return { ...SAMPLE_MAIL_VALUES, site_url: site, action_url: `${site}/dashboard` };
}

/** The inside of the rendered document's <body>. */
const bodyOf = (html: string) => /<body[^>]*>([\s\S]*)<\/body>/.exec(html)?.[1] ?? "";

function RenderedMail({ subject, body, lang }: { subject: string; body: string; lang: PreviewLang }) {
  const { t } = useTranslation();
  // the same rendering as the API's (contract), with sample values
  const mail = useMemo(() => renderMail({ subject, body }, sampleValues(lang)), [subject, body, lang]);
  return (
    <div className="mail-preview">
      <Typography.Paragraph>
        <Typography.Text type="secondary">{t("mail:templates.preview.subject")} </Typography.Text>
        <Typography.Text strong data-testid={`mail-preview-subject-${lang}`}>
          {mail.subject}
        </Typography.Text>
      </Typography.Paragraph>
      <div
        className="mail-preview-frame"
        role="document"
        aria-label={t("mail:templates.preview.frame")}
        data-testid={`mail-preview-${lang}`}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMail escapes every text and value; its only markup is its own <p>, <br> and <a href="http(s)…">
        dangerouslySetInnerHTML={{ __html: bodyOf(mail.html) }}
      />
    </div>
  );
}

/** One language's tab: the mail a reader of that language gets, and why when it is another language's. */
function LanguagePreview({
  texts,
  lang,
  transactional,
}: {
  texts: MailTextFields;
  lang: PreviewLang;
  transactional: boolean;
}) {
  const { t } = useTranslation();
  const preview = previewOf(texts, lang, transactional);
  return (
    <>
      {preview.fallback && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid={`mail-preview-fallback-${lang}`}
          title={t(`mail:templates.preview.fallback.${preview.fallback}`)}
        />
      )}
      {preview.fallback !== "builtIn" && (
        <RenderedMail lang={lang} subject={preview.subject} body={preview.body} />
      )}
    </>
  );
}

/**
 * Live preview of every language, rendered in the browser as the recipient will see it.
 * `transactional`: a mail Parlons sends itself, whose Spanish readers get the built-in Spanish
 * text when the template has none.
 */
export function MailPreview({
  texts,
  transactional = false,
}: {
  texts: MailTextFields;
  transactional?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <div>
      <Typography.Text strong>{t("mail:templates.preview.title")}</Typography.Text>{" "}
      <Typography.Text type="secondary">{t("mail:templates.preview.hint")}</Typography.Text>
      <Tabs
        size="small"
        items={PREVIEW_LANGS.map((lang) => ({
          key: lang,
          label: t(`mail:templates.preview.${lang}`),
          children: <LanguagePreview texts={texts} lang={lang} transactional={transactional} />,
        }))}
      />
    </div>
  );
}
