import { type MailValues, type RenderedMail, renderMail, type TransactionalSlug } from "@parlons/contract";
import type { FastifyBaseLogger } from "fastify";

/**
 * Transactional messages (activation, welcome, password reset) in the user's language. Their
 * texts are templates: an active template with the same slug in `email_templates` (seeded from
 * these defaults, editable by staff) wins; these defaults are used when there is none.
 */
type Lang = "FR" | "EN";

export interface TemplateTexts {
  name: string;
  subject_fr: string;
  subject_en: string;
  body_fr: string;
  body_en: string;
}

export const TRANSACTIONAL_DEFAULTS: Record<TransactionalSlug, TemplateTexts> = {
  activation: {
    name: "Account activation",
    subject_fr: "Activez votre compte Parlons",
    subject_en: "Activate your Parlons account",
    body_fr: [
      "Bonjour {{full_name}},",
      "Bienvenue sur Parlons ! Confirmez votre adresse e-mail pour commencer à apprendre.",
      "Activer mon compte : {{action_url}}",
      "Ce lien est valable 48 heures.",
    ].join("\n\n"),
    body_en: [
      "Hello {{full_name}},",
      "Welcome to Parlons! Confirm your email address to start learning.",
      "Activate my account: {{action_url}}",
      "This link is valid for 48 hours.",
    ].join("\n\n"),
  },
  welcome: {
    name: "Welcome",
    subject_fr: "Bienvenue sur Parlons",
    subject_en: "Welcome to Parlons",
    body_fr: [
      "Bonjour {{full_name}},",
      "Votre compte est prêt. Bonne écoute !",
      "Ouvrir Parlons : {{action_url}}",
    ].join("\n\n"),
    body_en: [
      "Hello {{full_name}},",
      "Your account is ready. Happy listening!",
      "Open Parlons: {{action_url}}",
    ].join("\n\n"),
  },
  "password-reset": {
    name: "Password reset",
    subject_fr: "Réinitialisez votre mot de passe Parlons",
    subject_en: "Reset your Parlons password",
    body_fr: [
      "Bonjour {{full_name}},",
      "Une demande de réinitialisation du mot de passe de votre compte Parlons a été faite. Si c'était vous, choisissez un nouveau mot de passe avec ce lien, valable une heure :",
      "{{action_url}}",
      "Sinon, ignorez ce message : votre mot de passe reste inchangé.",
    ].join("\n\n"),
    body_en: [
      "Hello {{full_name}},",
      "Someone asked to reset the password of your Parlons account. If it was you, choose a new password with this link, valid for one hour:",
      "{{action_url}}",
      "If it was not you, ignore this message: your password stays the same.",
    ].join("\n\n"),
  },
};

/** Subject and body of a template in one language. */
export function textsIn(template: TemplateTexts, lang: Lang) {
  return lang === "EN"
    ? { subject: template.subject_en, body: template.body_en }
    : { subject: template.subject_fr, body: template.body_fr };
}

export interface TransactionalMails {
  compose(
    slug: TransactionalSlug,
    user: { email: string; fullName: string; speak: Lang },
    actionUrl: string,
  ): Promise<RenderedMail>;
}

/**
 * `findActive` looks a template up by slug (null when missing or inactive); without it, or
 * when it fails, the defaults above are used, so a mail is never lost to a template problem.
 */
export function createTransactionalMails(opts: {
  publicUrl: string;
  findActive?: (slug: TransactionalSlug) => Promise<TemplateTexts | null>;
  log?: FastifyBaseLogger;
}): TransactionalMails {
  return {
    async compose(slug, user, actionUrl) {
      let template: TemplateTexts | null = null;
      try {
        template = (await opts.findActive?.(slug)) ?? null;
      } catch (err) {
        opts.log?.error({ err, slug }, "mail template could not be read: using the built-in text");
      }
      const values: MailValues = {
        full_name: user.fullName,
        email: user.email,
        plan_name: "",
        site_url: `${opts.publicUrl}${user.speak === "EN" ? "/en" : ""}`,
        action_url: actionUrl,
      };
      return renderMail(textsIn(template ?? TRANSACTIONAL_DEFAULTS[slug], user.speak), values);
    },
  };
}
