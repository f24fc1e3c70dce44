import {
  type Locale,
  langPrefix,
  type MailValues,
  mailTextsFor,
  pickField,
  type RenderedMail,
  renderMail,
  type Speak,
  type TransactionalSlug,
  toLocale,
} from "@parlons/contract";
import type { FastifyBaseLogger } from "fastify";
import type { DbOrTx } from "../../db/client";

/**
 * Transactional messages (activation, welcome, password reset) in the user's language. Their
 * texts are templates: an active template with the same slug in `email_templates` (seeded from
 * these defaults, editable by staff) wins; these defaults are used when there is none.
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
  "payment-receipt": {
    name: "Payment receipt",
    subject_fr: "Votre reçu Parlons",
    subject_en: "Your Parlons receipt",
    body_fr: [
      "Bonjour {{full_name}},",
      "Merci ! Nous avons bien reçu votre paiement pour l'offre {{plan_name}}.",
      "{{details}}",
      "Votre reçu, à imprimer ou à télécharger en PDF : {{action_url}}",
    ].join("\n\n"),
    body_en: [
      "Hello {{full_name}},",
      "Thank you! We have received your payment for the {{plan_name}} plan.",
      "{{details}}",
      "Your receipt, to print or download as a PDF: {{action_url}}",
    ].join("\n\n"),
  },
  "event-booked": {
    name: "Event booking confirmed",
    subject_fr: "Votre place est réservée",
    subject_en: "Your place is booked",
    body_fr: [
      "Bonjour {{full_name}},",
      "Votre réservation est confirmée :",
      "{{details}}",
      "L'invitation jointe (.ics) l'ajoute à votre agenda. Détails et annulation : {{action_url}}",
    ].join("\n\n"),
    body_en: [
      "Hello {{full_name}},",
      "Your booking is confirmed:",
      "{{details}}",
      "The attached invitation (.ics) adds it to your calendar. Details and cancellation: {{action_url}}",
    ].join("\n\n"),
  },
  "event-reminder": {
    name: "Event reminder (24 h before)",
    subject_fr: "Rappel : votre événement Parlons a lieu demain",
    subject_en: "Reminder: your Parlons event is tomorrow",
    body_fr: ["Bonjour {{full_name}},", "À demain !", "{{details}}", "Détails : {{action_url}}"].join("\n\n"),
    body_en: ["Hello {{full_name}},", "See you tomorrow!", "{{details}}", "Details: {{action_url}}"].join(
      "\n\n",
    ),
  },
  "study-reminder": {
    name: "Study reminder",
    subject_fr: "Quelques minutes de Parlons aujourd'hui ?",
    subject_en: "A few minutes of Parlons today?",
    body_fr: [
      "Bonjour {{full_name}},",
      "Vous n'avez pas encore étudié aujourd'hui. Quelques minutes d'écoute ou de révision suffisent pour garder votre série.",
      "{{details}}",
      "Reprendre : {{action_url}}",
    ].join("\n\n"),
    body_en: [
      "Hello {{full_name}},",
      "You have not studied yet today. A few minutes of listening or review keep your streak going.",
      "{{details}}",
      "Continue: {{action_url}}",
    ].join("\n\n"),
  },
  "account-locked": {
    name: "Account locked after wrong passwords",
    subject_fr: "Votre compte Parlons est verrouillé",
    subject_en: "Your Parlons account is locked",
    body_fr: [
      "Bonjour {{full_name}},",
      "Trop de mots de passe erronés ont été essayés sur votre compte Parlons : nous l'avons verrouillé pour une heure.",
      "Si c'était vous, déverrouillez-le tout de suite avec ce lien, valable 24 heures :",
      "{{action_url}}",
      "Si ce n'était pas vous, quelqu'un essaie de deviner votre mot de passe : choisissez-en un nouveau, long et unique (« Mot de passe oublié » sur la page de connexion).",
    ].join("\n\n"),
    body_en: [
      "Hello {{full_name}},",
      "Too many wrong passwords were tried on your Parlons account: we have locked it for an hour.",
      "If it was you, unlock it now with this link, valid for 24 hours:",
      "{{action_url}}",
      'If it was not you, someone is trying to guess your password: choose a new, long and unique one ("Forgot password" on the sign-in page).',
    ].join("\n\n"),
  },
};

/**
 * The built-in texts in the languages beyond French and English: seeded into the templates'
 * optional columns (`subject_es`, `body_es`), and used for a reader of that language when the
 * stored template has no text in it (left empty, or a language without columns).
 */
type OtherLocale = Exclude<Locale, "fr" | "en">;
/** Typed over every locale but French and English: a new locale makes the compiler ask for its texts. */
const OTHER_LANGUAGES: Record<OtherLocale, Record<TransactionalSlug, { subject: string; body: string }>> = {
  es: {
    activation: {
      subject: "Activa tu cuenta de Parlons",
      body: [
        "Hola, {{full_name}}:",
        "¡Te damos la bienvenida a Parlons! Confirma tu dirección de correo para empezar a aprender.",
        "Activar mi cuenta: {{action_url}}",
        "Este enlace es válido durante 48 horas.",
      ].join("\n\n"),
    },
    welcome: {
      subject: "Te damos la bienvenida a Parlons",
      body: [
        "Hola, {{full_name}}:",
        "Tu cuenta está lista. ¡Buena escucha!",
        "Abrir Parlons: {{action_url}}",
      ].join("\n\n"),
    },
    "password-reset": {
      subject: "Restablece tu contraseña de Parlons",
      body: [
        "Hola, {{full_name}}:",
        "Alguien ha pedido restablecer la contraseña de tu cuenta de Parlons. Si fuiste tú, elige una nueva contraseña con este enlace, válido durante una hora:",
        "{{action_url}}",
        "Si no fuiste tú, ignora este mensaje: tu contraseña no cambia.",
      ].join("\n\n"),
    },
    "payment-receipt": {
      subject: "Tu recibo de Parlons",
      body: [
        "Hola, {{full_name}}:",
        "¡Gracias! Hemos recibido tu pago del plan {{plan_name}}.",
        "{{details}}",
        "Tu recibo, para imprimir o descargar en PDF: {{action_url}}",
      ].join("\n\n"),
    },
    "event-booked": {
      subject: "Tu plaza está reservada",
      body: [
        "Hola, {{full_name}}:",
        "Tu reserva está confirmada:",
        "{{details}}",
        "La invitación adjunta (.ics) la añade a tu calendario. Detalles y cancelación: {{action_url}}",
      ].join("\n\n"),
    },
    "event-reminder": {
      subject: "Recordatorio: tu evento de Parlons es mañana",
      body: ["Hola, {{full_name}}:", "¡Hasta mañana!", "{{details}}", "Detalles: {{action_url}}"].join(
        "\n\n",
      ),
    },
    "study-reminder": {
      subject: "¿Unos minutos de Parlons hoy?",
      body: [
        "Hola, {{full_name}}:",
        "Todavía no has estudiado hoy. Unos minutos de escucha o de repaso bastan para mantener tu racha.",
        "{{details}}",
        "Continuar: {{action_url}}",
      ].join("\n\n"),
    },
    "account-locked": {
      subject: "Tu cuenta de Parlons está bloqueada",
      body: [
        "Hola, {{full_name}}:",
        "Se han probado demasiadas contraseñas incorrectas en tu cuenta de Parlons: la hemos bloqueado durante una hora.",
        "Si fuiste tú, desbloquéala ahora con este enlace, válido durante 24 horas:",
        "{{action_url}}",
        "Si no fuiste tú, alguien intenta adivinar tu contraseña: elige una nueva, larga y única («¿Olvidaste tu contraseña?» en la página de inicio de sesión).",
      ].join("\n\n"),
    },
  },
};

/** The built-in subject and body of a transactional mail in a language beyond French and English. */
export function builtInText(
  slug: TransactionalSlug,
  lang: Locale,
): { subject: string; body: string } | undefined {
  return lang === "fr" || lang === "en" ? undefined : OTHER_LANGUAGES[lang][slug];
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
