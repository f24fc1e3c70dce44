import { z } from "zod";
import { speak } from "./auth";
import { envelope, pagination } from "./common";
import { localeSchema } from "./locale-schema";
import { fallbackChain, type Locale } from "./locales";

/** Mail templates (FR/EN, ES optional, with {{variables}}), bulk sends to an audience, and their rendering. */

// ---------------------------------------------------------------- variables and rendering

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

// ---------------------------------------------------------------- templates

const subjectField = z.string().trim().min(1, "Subject is required").max(200);
const bodyField = z.string().trim().min(1, "Body is required").max(20_000);

export const templateSlug = z
  .string()
  .trim()
  .min(1, "Slug is required")
  .max(80)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use lowercase letters, digits and hyphens");

/** Adds a 422 issue per field that uses an unknown variable. */
const TEXT_FIELDS = ["subject_fr", "subject_en", "subject_es", "body_fr", "body_en", "body_es"] as const;
/** Subjects and bodies per language, any of them missing (a form being filled in). */
export type MailTextFields = Partial<Record<(typeof TEXT_FIELDS)[number], string | undefined>>;

function checkVariables(value: MailTextFields, ctx: z.RefinementCtx) {
  for (const field of TEXT_FIELDS) {
    const unknown = unknownVariables(value[field] ?? "");
    if (unknown.length) {
      ctx.addIssue({
        code: "custom",
        path: [field],
        message: `Unknown variable ${unknown.join(", ")}: use ${MAIL_VARIABLES.map((v) => `{{${v}}}`).join(", ")}`,
      });
    }
  }
}

const spanishSubject = z.string().trim().max(200).optional();
const spanishBody = z.string().trim().max(20_000).optional();

/** Spanish is optional, but its subject and body go together. */
function checkSpanishPair(value: MailTextFields, ctx: z.RefinementCtx) {
  const spanish = { subject_es: value.subject_es ?? "", body_es: value.body_es ?? "" };
  for (const [field, other] of [
    ["subject_es", "body_es"],
    ["body_es", "subject_es"],
  ] as const) {
    if (!spanish[field] && spanish[other]) {
      ctx.addIssue({ code: "custom", path: [field], message: "Give the Spanish subject and body together" });
    }
  }
}

const templateFields = z.object({
  name: z.string().trim().min(1, "Name is required").max(120),
  slug: templateSlug,
  subject_fr: subjectField,
  subject_en: subjectField,
  body_fr: bodyField,
  body_en: bodyField,
  /**
   * Spanish, optional: both or neither ("" clears them; left out on an update, they stay as they
   * are). Without them a Spanish reader gets the built-in Spanish text of a transactional mail,
   * else the English one (docs/i18n.md).
   */
  subject_es: spanishSubject,
  body_es: spanishBody,
  active: z.boolean().default(true),
});

export const emailTemplateBody = templateFields.strict().superRefine((value, ctx) => {
  checkVariables(value, ctx);
  checkSpanishPair(value, ctx);
  if ((TRANSACTIONAL_SLUGS as readonly string[]).includes(value.slug)) {
    for (const field of ["body_fr", "body_en", "body_es"] as const) {
      const body = value[field];
      if (body && !variablesIn(body).includes("action_url")) {
        ctx.addIssue({
          code: "custom",
          path: [field],
          message: "This mail is sent by Parlons itself: its body must contain {{action_url}}",
        });
      }
    }
  }
});
export type EmailTemplateBody = z.infer<typeof emailTemplateBody>;

export const emailTemplate = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  subject_fr: z.string(),
  subject_en: z.string(),
  body_fr: z.string(),
  body_en: z.string(),
  /** "" when the template has no Spanish text. */
  subject_es: z.string(),
  body_es: z.string(),
  active: z.boolean(),
  /** Sent by the API itself (activation, welcome, password reset). */
  transactional: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type EmailTemplate = z.infer<typeof emailTemplate>;

export const emailTemplateListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
  search: z.string().trim().max(120).optional(),
});
export type EmailTemplateListQuery = z.infer<typeof emailTemplateListQuery>;

export const emailTemplateListResponse = envelope(
  z.object({ templates: z.array(emailTemplate), pagination }),
);
export type EmailTemplateListResponse = z.infer<typeof emailTemplateListResponse>;
/** `GET /v1/email-templates/active`: what the send form offers (at most 200). */
export const activeEmailTemplatesResponse = envelope(z.object({ templates: z.array(emailTemplate) }));
export const emailTemplateResponse = envelope(z.object({ template: emailTemplate }));
export type EmailTemplateResponse = z.infer<typeof emailTemplateResponse>;
export const emailTemplateDeleteResponse = envelope(z.object({ id: z.string() }));

/**
 * `POST /v1/email-templates/preview`: renders subject and bodies with sample values. `es` is what
 * a Spanish reader gets: the Spanish texts when both are given, else the English (then French)
 * ones, as a campaign sends them.
 */
export const mailPreviewBody = z
  .object({
    subject_fr: z.string().max(200).default(""),
    subject_en: z.string().max(200).default(""),
    body_fr: z.string().max(20_000).default(""),
    body_en: z.string().max(20_000).default(""),
    subject_es: z.string().max(200).default(""),
    body_es: z.string().max(20_000).default(""),
  })
  .strict()
  .superRefine(checkVariables);
export type MailPreviewBody = z.infer<typeof mailPreviewBody>;

const renderedMail = z.object({ subject: z.string(), text: z.string(), html: z.string() });
export const mailPreviewResponse = envelope(
  z.object({
    fr: renderedMail,
    en: renderedMail,
    es: renderedMail.extend({ lang: localeSchema }),
  }),
);

// ---------------------------------------------------------------- audience and campaigns

/** Who a bulk mail goes to. Only active accounts ever receive it; filters narrow it down. */
export const mailAudience = z
  .object({
    /** A role title (CUSTOMER, ADMIN…): users holding that role. */
    role: z.string().trim().min(1).max(60).optional(),
    /** "free" (the free plan or none), "premium" (a paid plan) or one plan's id. */
    plan: z.union([z.enum(["free", "premium"]), z.uuid()]).optional(),
    status: z.literal("ACTIVE").optional(),
    /** The language the user reads. */
    speak: speak.optional(),
    /** A course's learners: users with progress in at least one of its lessons (who started it). */
    course_id: z.uuid("Choose a course from the list").optional(),
    /**
     * Learners inactive for N days: accounts at least N days old with no listening, saved progress
     * or review in the last N days.
     */
    inactive_days: z
      .number("Give a number of days")
      .int("Give a whole number of days")
      .min(1, "At least 1 day")
      .max(365, "At most 365 days")
      .optional(),
  })
  .strict();
export type MailAudience = z.infer<typeof mailAudience>;

export const CAMPAIGN_STATUSES = ["DRAFT", "QUEUED", "SENDING", "SENT", "FAILED"] as const;
export const campaignStatus = z.enum(CAMPAIGN_STATUSES);
export type CampaignStatus = z.infer<typeof campaignStatus>;

export const mailCampaign = z.object({
  id: z.string(),
  template_id: z.string().nullable(),
  subject_fr: z.string(),
  subject_en: z.string(),
  body_fr: z.string(),
  body_en: z.string(),
  /** "" when the campaign has no Spanish text (its Spanish readers get English). */
  subject_es: z.string(),
  body_es: z.string(),
  audience: mailAudience,
  status: campaignStatus,
  /** Deliveries queued (the recipients when it was sent). */
  total: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
  /**
   * Recipients who unsubscribed from news: through this campaign's mail (its link or one-click
   * header), or after it was queued and before their mail went out (then not sent, and not failed).
   */
  unsubscribed: z.number().int(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type MailCampaign = z.infer<typeof mailCampaign>;

const content = {
  /** Copies the template's subjects and bodies into the campaign (later edits do not change it). */
  template_id: z.uuid().optional(),
  subject_fr: subjectField.optional(),
  subject_en: subjectField.optional(),
  body_fr: bodyField.optional(),
  body_en: bodyField.optional(),
  /** Optional, both or neither ("" = none): without them Spanish readers get English. */
  subject_es: spanishSubject,
  body_es: spanishBody,
};
type ContentValue = MailTextFields & { template_id?: string | undefined };

/** Either a template, or the French and English texts (Spanish optional): not both, not neither. */
function checkContent(value: ContentValue, ctx: z.RefinementCtx) {
  if (value.template_id) {
    for (const field of TEXT_FIELDS) {
      if (value[field] !== undefined)
        ctx.addIssue({ code: "custom", path: [field], message: "Give a template or texts, not both" });
    }
    return;
  }
  for (const field of ["subject_fr", "subject_en", "body_fr", "body_en"] as const) {
    if (value[field] === undefined)
      ctx.addIssue({ code: "custom", path: [field], message: "Required without a template" });
  }
  checkVariables(value, ctx);
  checkSpanishPair(value, ctx);
}

/** `POST /v1/send-mail`: a DRAFT campaign from a template or from texts, for an audience. */
export const campaignCreateBody = z
  .object({ ...content, audience: mailAudience })
  .strict()
  .superRefine(checkContent);
export type CampaignCreateBody = z.infer<typeof campaignCreateBody>;

/** `POST /v1/send-mail/send`: queues a DRAFT campaign, or creates and queues one in a step. */
export const campaignSendBody = z
  .object({ campaign_id: z.uuid().optional(), ...content, audience: mailAudience.optional() })
  .strict()
  .superRefine((value, ctx) => {
    if (value.campaign_id) {
      for (const field of ["template_id", ...TEXT_FIELDS, "audience"] as const) {
        if (value[field] !== undefined)
          ctx.addIssue({ code: "custom", path: [field], message: "Not allowed with campaign_id" });
      }
      return;
    }
    if (!value.audience) ctx.addIssue({ code: "custom", path: ["audience"], message: "Required" });
    checkContent(value, ctx);
  });
export type CampaignSendBody = z.infer<typeof campaignSendBody>;

/**
 * `POST /v1/send-mail/test`: the draft (a campaign, a template or the texts being written) sent
 * only to the signed-in staff member, in their language, with their own values, marked as a test.
 */
export const campaignTestBody = z
  .object({ campaign_id: z.uuid().optional(), ...content })
  .strict()
  .superRefine((value, ctx) => {
    if (value.campaign_id) {
      for (const field of ["template_id", ...TEXT_FIELDS] as const) {
        if (value[field] !== undefined)
          ctx.addIssue({ code: "custom", path: [field], message: "Not allowed with campaign_id" });
      }
      return;
    }
    checkContent(value, ctx);
  });
export type CampaignTestBody = z.infer<typeof campaignTestBody>;
export const campaignTestResponse = envelope(
  z.object({
    /** The address the test went to: the caller's own. */
    to: z.string(),
    subject: z.string(),
    /** False when the same test was already queued in the last minute (a double click). */
    queued: z.boolean(),
  }),
);
export type CampaignTestResponse = z.infer<typeof campaignTestResponse>;

export const campaignCountBody = z.object({ audience: mailAudience }).strict();
export const campaignCountResponse = envelope(z.object({ count: z.number().int() }));

export const campaignListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const campaignFilters = z
  .object({
    status: campaignStatus.optional(),
    /** Words of the French, English or Spanish subject. */
    search: z.string().trim().max(120).optional(),
  })
  .strict();
export type CampaignFilters = z.infer<typeof campaignFilters>;
/** `POST /v1/send-mail/pagination`. */
export const campaignPaginationBody = z
  .object({
    page: z.number().int().min(1).default(1),
    pageSize: z.number().int().min(1).max(100).default(20),
    filters: campaignFilters.default({}),
  })
  .strict();
export type CampaignPaginationBody = z.infer<typeof campaignPaginationBody>;

export const campaignListResponse = envelope(z.object({ campaigns: z.array(mailCampaign), pagination }));
export type CampaignListResponse = z.infer<typeof campaignListResponse>;
export const campaignResponse = envelope(z.object({ campaign: mailCampaign }));
export type CampaignResponse = z.infer<typeof campaignResponse>;
