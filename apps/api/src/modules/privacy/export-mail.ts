import type { Locale } from "@parlons/contract";

/** The mail that brings a data export's download link, in the account's language. */
const EXPORT_MAIL: Record<Locale, { subject: string; text: (link: string) => string }> = {
  fr: {
    subject: "Parlons : vos données sont prêtes",
    text: (link) =>
      `Bonjour,\n\nL'archive de vos données Parlons est prête. Téléchargez-la avec ce lien, valable 7 jours :\n${link}\n\nSi vous n'avez rien demandé, ignorez ce message.`,
  },
  en: {
    subject: "Parlons: your data is ready",
    text: (link) =>
      `Hello,\n\nThe archive of your Parlons data is ready. Download it with this link, valid for 7 days:\n${link}\n\nIf you did not ask for it, ignore this message.`,
  },
  es: {
    subject: "Parlons: tus datos están listos",
    text: (link) =>
      `Hola:\n\nEl archivo con tus datos de Parlons está listo. Descárgalo con este enlace, válido durante 7 días:\n${link}\n\nSi no lo has pedido, ignora este mensaje.`,
  },
};

export function exportMail(lang: Locale, link: string): { subject: string; text: string } {
  const words = EXPORT_MAIL[lang];
  return { subject: words.subject, text: words.text(link) };
}
