import type { Locale } from "@parlons/contract";

/**
 * The words of a certificate's PDF, in the language asked. The web pages have the same words
 * in their locale files; these are the server's own.
 */
export const certificateTexts: Record<
  Locale,
  {
    title: string;
    intro: string;
    completed: string;
    issued: (date: string) => string;
    quoted: (course: string) => string;
    code: string;
    sep: string;
    verify: string;
    revoked: string;
  }
> = {
  fr: {
    title: "Certificat de réussite",
    intro: "Parlons certifie que",
    completed: "a terminé toutes les leçons du cours",
    issued: (date: string) => `Délivré le ${date}`,
    quoted: (course: string) => `« ${course} »`,
    code: "Code",
    sep: " : ",
    verify: "Vérifiez ce certificat sur",
    revoked: "CE CERTIFICAT A ÉTÉ RÉVOQUÉ",
  },
  en: {
    title: "Certificate of completion",
    intro: "Parlons certifies that",
    completed: "has completed every lesson of the course",
    issued: (date: string) => `Issued on ${date}`,
    quoted: (course: string) => `“${course}”`,
    code: "Code",
    sep: ": ",
    verify: "Verify this certificate at",
    revoked: "THIS CERTIFICATE HAS BEEN REVOKED",
  },
  es: {
    title: "Certificado de aprovechamiento",
    intro: "Parlons certifica que",
    completed: "ha terminado todas las lecciones del curso",
    issued: (date: string) => `Expedido el ${date}`,
    quoted: (course: string) => `«${course}»`,
    code: "Código",
    sep: ": ",
    verify: "Verifica este certificado en",
    revoked: "ESTE CERTIFICADO HA SIDO REVOCADO",
  },
};
