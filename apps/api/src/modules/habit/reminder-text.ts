import type { Locale } from "@parlons/contract";

/** "day"/"days" of a streak, by the language's plural rule (French: 0 and 1 are singular). */
const DAYS: Record<Locale, { one: string; other: string; line: (days: string) => string }> = {
  fr: { one: "jour", other: "jours", line: (days) => `Votre série : ${days}.` },
  en: { one: "day", other: "days", line: (days) => `Your streak: ${days}.` },
  es: { one: "día", other: "días", line: (days) => `Tu racha: ${days}.` },
};

/** The streak line of a study reminder in the reader's language ("" with no streak). */
export function streakLine(days: number, lang: Locale): string {
  if (days <= 0) return "";
  const words = DAYS[lang];
  const word = new Intl.PluralRules(lang).select(days) === "one" ? words.one : words.other;
  return words.line(`${days} ${word}`);
}
