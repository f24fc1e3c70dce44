import type { Locale } from "@parlons/contract";
import { counted, fill, wordsOf } from "../../locales";

/** The streak line of a study reminder in the reader's language ("" with no streak); "day"/"days" by the language's plural rule. */
export function streakLine(days: number, lang: Locale): string {
  if (days <= 0) return "";
  const { streak } = wordsOf(lang).words;
  return fill(streak.line, { days: counted(streak, "days", days, lang) });
}
