import { fallbackChain, type Locale } from "./locales";

/**
 * Mail variables ({{first_name}}…) and the rendering of a subject and body with them. Templates
 * are in mail-templates.ts, campaigns in mail-campaigns.ts.
 */

/** The variables a template may use; anything else is refused when the template is saved. */
export const MAIL_VARIABLES = [
  "full_name",
  "email",
  "plan_name",
  "site_url",
  "action_url",
  "details",
] as const;
export type MailVariable = (typeof MAIL_VARIABLES)[number];
export type MailValues = Record<MailVariable, string>;

/** Variables whose value is a link: the HTML part makes them clickable. */
const LINK_VARIABLES = new Set<string>(["site_url", "action_url"]);

/**
 * Templates the API sends by itself (account activation, welcome, password reset) when they
 * exist and are active; their bodies must carry `{{action_url}}`, the link the mail is about.
 */
export const TRANSACTIONAL_SLUGS = [
  "activation",
  "welcome",
  "password-reset",
  "payment-receipt",
  "event-booked",
  "event-reminder",
  "study-reminder",
  "account-locked",
  "new-device",
  "password-changed",
] as const;
export type TransactionalSlug = (typeof TRANSACTIONAL_SLUGS)[number];

/** Values used by previews: a plausible learner. */
export const SAMPLE_MAIL_VALUES: MailValues = {
  full_name: "Camille Martin",
  email: "camille.martin@example.com",
  plan_name: "Premium",
  site_url: "https://parlons.example",
  action_url: "https://parlons.example/dashboard",
  details: "Reçu R-2026-000042 · 9,90 €",
};

const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Names used in `{{…}}` placeholders of a text, in order of first appearance. */
export function variablesIn(text: string): string[] {
  return [...new Set([...text.matchAll(VARIABLE)].map((m) => m[1] ?? ""))];
}

/** Placeholders of a text that are not known variables (written as they appear: `{{name}}`). */
export function unknownVariables(text: string): string[] {
  const known = new Set<string>(MAIL_VARIABLES);
  return variablesIn(text)
    .filter((name) => !known.has(name))
    .map((name) => `{{${name}}}`);
}

export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)]/g;
const linkStyle = "color:#1d4ed8";
const link = (escapedUrl: string) => `<a href="${escapedUrl}" style="${linkStyle}">${escapedUrl}</a>`;

function substitute(text: string, value: (name: string) => string): string {
  return text.replace(VARIABLE, (_all, name: string) => value(name));
}

/** One line of the HTML part: literal text escaped and its URLs linked; values escaped, link variables linked. */
function htmlLine(line: string, values: Partial<MailValues>): string {
  let out = "";
  let last = 0;
  for (const match of line.matchAll(VARIABLE)) {
    const index = match.index ?? 0;
    out += escapeHtml(line.slice(last, index)).replace(URL_IN_TEXT, (url) => link(url));
    const name = match[1] ?? "";
    const value = escapeHtml(values[name as MailVariable] ?? "");
    // a value of several lines (a receipt's number, date and amount) keeps its lines in HTML too
    out +=
      LINK_VARIABLES.has(name) && /^https?:\/\//.test(value) ? link(value) : value.replace(/\r?\n/g, "<br>");
    last = index + match[0].length;
  }
  return out + escapeHtml(line.slice(last)).replace(URL_IN_TEXT, (url) => link(url));
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * Renders a template for one recipient. The body is plain text: blank lines separate
 * paragraphs. In the HTML part every value is escaped (a name like `<script>` stays text), and
 * URLs written in the template or given by link variables become links. Line breaks in
 * values are removed from the subject (a header). Unknown variables render as nothing.
 */
export function renderMail(
  template: { subject: string; body: string },
  values: Partial<MailValues>,
): RenderedMail {
  const raw = (name: string) => values[name as MailVariable] ?? "";
  const subject = substitute(template.subject, (name) => raw(name).replace(/[\r\n]+/g, " ")).trim();
  const body = template.body.replace(/\r\n?/g, "\n").trim();
  const text = substitute(body, raw);
  const paragraphs = body
    .split(/\n\s*\n/)
    .map(
      (p) =>
        `<p>${p
          .split("\n")
          .map((line) => htmlLine(line, values))
          .join("<br>")}</p>`,
    )
    .join("");
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${paragraphs}</body></html>`;
  return { subject, text, html };
}

/**
 * The subject and body a reader of `lang` gets from texts stored per language (`subject_fr`,
 * `body_es`…): the first language of the fallback rule (theirs, English, French) that has both,
 * so a half-translated text never sends one language's subject over another's body. `lang` says
 * which language that was; null when no language has both.
 */
export function mailTextsFor(
  texts: object,
  lang: Locale,
): { subject: string; body: string; lang: Locale } | null {
  const fields = texts as Record<string, unknown>;
  const text = (base: "subject" | "body", l: Locale) => {
    const value = fields[`${base}_${l}`];
    return typeof value === "string" && value.trim() ? value : "";
  };
  for (const l of fallbackChain(lang)) {
    const subject = text("subject", l);
    const body = text("body", l);
    if (subject && body) return { subject, body, lang: l };
  }
  return null;
}
