import {
  type Locale,
  langPrefix,
  type MailValues,
  mailTextsFor,
  pickField,
  type RenderedMail,
  renderMail,
  type Speak,
  TRANSACTIONAL_SLUGS,
  type TransactionalSlug,
  toLocale,
} from "@parlons/contract";
import type { FastifyBaseLogger } from "fastify";
import type { DbOrTx } from "../../db/client";
import { catalogues } from "../../locales";

/**
 * Transactional messages (activation, welcome, password reset) in the user's language. Their
 * texts are templates: an active template with the same slug in `email_templates` (seeded from
 * the catalogues' built-in texts, editable by staff) wins; the built-in texts are used when there is none.
 */
type Lang = Speak;

export interface TemplateTexts {
  name: string;
  subject_fr: string;
  subject_en: string;
  body_fr: string;
  body_en: string;
  /** Optional: "" or missing when the template has no Spanish text. */
  subject_es?: string;
  body_es?: string;
}

/** The name staff see for each built-in template (the list of templates is English for staff). */
const TEMPLATE_NAMES: Record<TransactionalSlug, string> = {
  activation: "Account activation",
  welcome: "Welcome",
  "password-reset": "Password reset",
  "payment-receipt": "Payment receipt",
  "event-booked": "Event booking confirmed",
  "event-reminder": "Event reminder (24 h before)",
  "study-reminder": "Study reminder",
  "account-locked": "Account locked after wrong passwords",
  "new-device": "Sign-in from a new device",
  "password-changed": "Password changed",
};

/** The built-in French and English texts (src/locales/<lang>/mail.ts), as a template's fields. */
export const TRANSACTIONAL_DEFAULTS = Object.fromEntries(
  TRANSACTIONAL_SLUGS.map((slug) => [
    slug,
    {
      name: TEMPLATE_NAMES[slug],
      subject_fr: catalogues.fr.mail[slug].subject,
      subject_en: catalogues.en.mail[slug].subject,
      body_fr: catalogues.fr.mail[slug].body,
      body_en: catalogues.en.mail[slug].body,
    },
  ]),
) as Record<TransactionalSlug, TemplateTexts>;

/**
 * The built-in subject and body of a transactional mail in a language beyond French and English
 * (its catalogue's `mail`): seeded into the templates' optional columns (`subject_es`, `body_es`),
 * and used for a reader of that language when the stored template has no text in it.
 */
export function builtInText(
  slug: TransactionalSlug,
  lang: Locale,
): { subject: string; body: string } | undefined {
  return lang === "fr" || lang === "en" ? undefined : catalogues[lang].mail[slug];
}

/**
 * Subject and body of a template for a reader, never one language's subject over another's body:
 * the reader's language when the template has both texts in it; else, for a transactional mail,
 * the built-in text of that language; else the first language of `pickText`'s fallback rule
 * (English, then French) that has both; else each text by that rule. So a Spanish reader gets the
 * template's Spanish, else the built-in Spanish, else (a campaign, a staff template without
 * Spanish) English.
 */
export function textsIn(template: TemplateTexts, lang: Lang, slug?: TransactionalSlug) {
  const locale = toLocale(lang);
  const texts = mailTextsFor(template, locale);
  if (texts?.lang === locale) return { subject: texts.subject, body: texts.body };
  const builtIn = slug ? builtInText(slug, locale) : undefined;
  if (builtIn) return builtIn;
  if (texts) return { subject: texts.subject, body: texts.body };
  return { subject: pickField(template, "subject", locale), body: pickField(template, "body", locale) };
}

export interface TransactionalMails {
  compose(
    slug: TransactionalSlug,
    user: { email: string; fullName: string; speak: Lang },
    actionUrl: string,
    /** `details`: lines about what the mail tells; `tx`: the transaction the mail is queued in. */
    extra?: { details?: string; planName?: string; tx?: DbOrTx },
  ): Promise<RenderedMail>;
}

/**
 * `findActive` looks a template up by slug (null when missing or inactive); without it, or
 * when it fails, the defaults above are used, so a mail is never lost to a template problem.
 */
export function createTransactionalMails(opts: {
  publicUrl: string;
  findActive?: (slug: TransactionalSlug, tx?: DbOrTx) => Promise<TemplateTexts | null>;
  log?: FastifyBaseLogger;
}): TransactionalMails {
  return {
    async compose(slug, user, actionUrl, extra = {}) {
      let template: TemplateTexts | null = null;
      try {
        template = (await opts.findActive?.(slug, extra.tx)) ?? null;
      } catch (err) {
        opts.log?.error({ err, slug }, "mail template could not be read: using the built-in text");
      }
      const values: MailValues = {
        full_name: user.fullName,
        email: user.email,
        plan_name: extra.planName ?? "",
        details: extra.details ?? "",
        site_url: `${opts.publicUrl}${langPrefix(toLocale(user.speak))}`,
        action_url: actionUrl,
      };
      return renderMail(textsIn(template ?? TRANSACTIONAL_DEFAULTS[slug], user.speak, slug), values);
    },
  };
}
