import type { Locale } from "@parlons/contract";
import { type Catalogue, fill, wordsOf } from "../../locales";

type CertificateWords = Omit<Catalogue["words"]["certificate"], "issued" | "quoted"> & {
  issued: (date: string) => string;
  quoted: (course: string) => string;
};

const wordsIn = (lang: Locale): CertificateWords => {
  const words = wordsOf(lang).words.certificate;
  return {
    ...words,
    issued: (date) => fill(words.issued, { date }),
    quoted: (course) => fill(words.quoted, { course }),
  };
};

/**
 * The words of a certificate's PDF, in the language asked, from the server's catalogues
 * (src/locales). The web pages have the same words in their locale files; these are the server's own.
 */
export const certificateTexts: Record<Locale, CertificateWords> = {
  fr: wordsIn("fr"),
  en: wordsIn("en"),
  es: wordsIn("es"),
};
