/**
 * The words of a receipt outside the web app (its PDF and its mail), in the learner's language.
 * The web page has the same words in its locale files; these are the server's own.
 */
import type { Lang } from "../../lib/format";
import { type Catalogue, fill, wordsOf } from "../../locales";

export type ReceiptLang = Lang;

type ReceiptWords = Omit<
  Catalogue["words"]["receipt"],
  "plan" | "course" | "discount" | "providers" | "vatLine"
> & {
  discount: (code: string) => string;
  vatLine: (rate: string) => string;
  plan: (name: string) => string;
  course: (name: string) => string;
  providers: Record<string, string>;
};

const wordsIn = (lang: Lang): ReceiptWords => {
  const words = wordsOf(lang).words.receipt;
  return {
    ...words,
    plan: (name) => fill(words.plan, { name }),
    course: (name) => fill(words.course, { name }),
    discount: (code) => fill(words.discount, { code }),
    vatLine: (rate) => fill(words.vatLine, { rate }),
    providers: words.providers,
  };
};

/** The receipt's words in each language, from the server's catalogues (src/locales). */
export const receiptTexts: Record<Lang, ReceiptWords> = {
  fr: wordsIn("fr"),
  en: wordsIn("en"),
  es: wordsIn("es"),
};
