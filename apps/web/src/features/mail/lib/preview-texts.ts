import { type Locale, type MailTextFields, mailTextsFor } from "@parlons/contract";

/** The languages a mail is written in: French and English required, Spanish optional. */
export const PREVIEW_LANGS = ["fr", "en", "es"] as const;
export type PreviewLang = (typeof PREVIEW_LANGS)[number];

export interface PreviewOf {
  subject: string;
  body: string;
  /**
   * Set when the reader does not get texts of their own language: "builtIn" (Parlons sends its
   * built-in text in that language: nothing to render here), or the language whose texts they get.
   */
  fallback?: "builtIn" | Locale;
}

/**
 * What a reader of `lang` gets, as the API sends it (`textsIn`): French and English are
 * required, so their tabs show what is typed; Spanish shows the Spanish subject and body when
 * both are given, else, for a mail Parlons sends itself, its built-in Spanish, else the English
 * (then French) texts.
 */
export function previewOf(texts: MailTextFields, lang: PreviewLang, transactional = false): PreviewOf {
  if (lang !== "es") return { subject: texts[`subject_${lang}`] ?? "", body: texts[`body_${lang}`] ?? "" };
  const chosen = mailTextsFor(texts, lang);
  if (chosen?.lang === lang) return { subject: chosen.subject, body: chosen.body };
  if (transactional) return { subject: "", body: "", fallback: "builtIn" };
  if (chosen) return { subject: chosen.subject, body: chosen.body, fallback: chosen.lang };
  return { subject: "", body: "" };
}
