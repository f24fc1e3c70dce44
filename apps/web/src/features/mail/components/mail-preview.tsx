import { type MailValues, renderMail, SAMPLE_MAIL_VALUES } from "@parlons/contract";
import { Tabs, Typography } from "antd";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";

export interface PreviewTexts {
  subject_fr?: string | undefined;
  subject_en?: string | undefined;
  body_fr?: string | undefined;
  body_en?: string | undefined;
}

function sampleValues(lang: "fr" | "en"): MailValues {
  const site = `${window.location.origin}${lang === "en" ? "/en" : ""}`;
  return { ...SAMPLE_MAIL_VALUES, site_url: site, action_url: `${site}/dashboard` };
}

/** The inside of the rendered document's <body>. */
const bodyOf = (html: string) => /<body[^>]*>([\s\S]*)<\/body>/.exec(html)?.[1] ?? "";

function RenderedMail({ subject, body, lang }: { subject: string; body: string; lang: "fr" | "en" }) {
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

/** Live preview of both languages, rendered in the browser as the recipient will see it. */
export function MailPreview({ texts }: { texts: PreviewTexts }) {
  const { t } = useTranslation();
  return (
    <div>
      <Typography.Text strong>{t("mail:templates.preview.title")}</Typography.Text>{" "}
      <Typography.Text type="secondary">{t("mail:templates.preview.hint")}</Typography.Text>
      <Tabs
        size="small"
        items={(["fr", "en"] as const).map((lang) => ({
          key: lang,
          label: t(`mail:templates.preview.${lang}`),
          children: (
            <RenderedMail
              lang={lang}
              subject={(lang === "fr" ? texts.subject_fr : texts.subject_en) ?? ""}
              body={(lang === "fr" ? texts.body_fr : texts.body_en) ?? ""}
            />
          ),
        }))}
      />
    </div>
  );
}
