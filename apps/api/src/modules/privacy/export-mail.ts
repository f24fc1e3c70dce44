import type { Locale } from "@parlons/contract";
import { fill, wordsOf } from "../../locales";

/** The mail that brings a data export's download link, in the account's language. */
export function exportMail(lang: Locale, link: string): { subject: string; text: string } {
  const words = wordsOf(lang).words.exportMail;
  return { subject: words.subject, text: fill(words.text, { link }) };
}
