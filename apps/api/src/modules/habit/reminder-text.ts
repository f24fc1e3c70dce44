import { type Locale, langPrefix, type PushMessage } from "@parlons/contract";
import { counted, fill, wordsOf } from "../../locales";

/** The streak line of a study reminder in the reader's language ("" with no streak); "day"/"days" by the language's plural rule. */
export function streakLine(days: number, lang: Locale): string {
  if (days <= 0) return "";
  const { streak } = wordsOf(lang).words;
  return fill(streak.line, { days: counted(streak, "days", days, lang) });
}

/** The study reminder's notification in the reader's language: opens the dashboard. */
export function studyPush(lang: Locale, streak: number): PushMessage {
  const words = wordsOf(lang).words.push;
  return {
    title: words.studyTitle,
    body: [words.studyBody, streakLine(streak, lang)].filter(Boolean).join(" "),
    url: `${langPrefix(lang)}/dashboard`,
    tag: "study-reminder",
  };
}
