import { z } from "zod";
import { envelope, pagination } from "./common";
import { localeSchema } from "./locale-schema";
import { TRANSACTIONAL_SLUGS, variablesIn } from "./mail";
import {
  bodyField,
  checkSpanishPair,
  checkVariables,
  spanishBody,
  spanishSubject,
  storedTexts,
  subjectField,
} from "./mail-texts";

/** Mail templates (FR/EN, ES optional, with {{variables}}) and their preview. */

export const templateSlug = z
  .string()
  .trim()
  .min(1, "Slug is required")
  .max(80)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use lowercase letters, digits and hyphens");

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
  ...storedTexts,
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
