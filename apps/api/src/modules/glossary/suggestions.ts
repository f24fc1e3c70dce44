import { courseVocabulary, type GlossarySuggestion, isStopWord, lineWords, wordKey } from "@parlons/contract";
import type { DictdShelf } from "./dictd";

interface Line {
  text: string;
  translation_fr: string;
  translation_en: string;
}

/** The content words of a translation, once each, lower case. */
const contentWords = (text: string, language: string) =>
  new Set(
    lineWords(text)
      .map(wordKey)
      .filter((w) => w.length >= 3 && !/\p{N}/u.test(w) && !isStopWord(w, language)),
  );

/**
 * The word of the translations that goes with `word` (the Dice coefficient of the lines saying
 * each): only when they meet in two lines at least and rarely apart, else "".
 */
function alignedWord(lines: Line[], word: string, field: "translation_fr" | "translation_en"): string {
  const language = field === "translation_fr" ? "fr" : "en";
  let withWord = 0;
  const together = new Map<string, number>();
  const alone = new Map<string, number>();
  for (const line of lines) {
    const translated = contentWords(line[field], language);
    const has = lineWords(line.text).some((w) => wordKey(w) === word);
    if (has) withWord++;
    for (const t of translated) {
      alone.set(t, (alone.get(t) ?? 0) + 1);
      if (has) together.set(t, (together.get(t) ?? 0) + 1);
    }
  }
  let best = "";
  let bestScore = 0;
  for (const [t, both] of together) {
    const score = (2 * both) / (withWord + (alone.get(t) ?? 0));
    if (both >= 2 && score > bestScore) {
      best = t;
      bestScore = score;
    }
  }
  return bestScore >= 0.6 ? best : "";
}

/**
 * Words of a course's lines worth a glossary entry (content words, the most said first, none
 * already in the glossary), each with a meaning to start from: the installed dictionary's, else
 * the translation of a line that says this word alone, else the word its translations share.
 */
export async function suggestEntries(opts: {
  lines: Line[];
  language: string;
  known: Set<string>;
  dictionaries: DictdShelf;
  limit: number;
}): Promise<GlossarySuggestion[]> {
  const { lines, language, known, dictionaries } = opts;
  const vocabulary = [
    ...courseVocabulary(
      lines.map((l) => l.text),
      language,
    ),
  ]
    .filter(([word]) => !known.has(word))
    .sort(([a, m], [b, n]) => n - m || a.localeCompare(b, language))
    .slice(0, opts.limit);
  const toFr = dictionaries.between(language, "fr");
  const toEn = dictionaries.between(language, "en");
  const suggestions: GlossarySuggestion[] = [];
  for (const [word, count] of vocabulary) {
    const example = lines.find((l) => lineWords(l.text).some((w) => wordKey(w) === word)) as Line;
    const [fr] = toFr ? await toFr.lookup(word) : [];
    const [en] = toEn ? await toEn.lookup(word) : [];
    const said = {
      text: example.text,
      translation_fr: example.translation_fr,
      translation_en: example.translation_en,
    };
    if (fr || en) {
      suggestions.push({
        term: word,
        count,
        meaning_fr: fr?.meanings ?? "",
        meaning_en: en?.meanings ?? "",
        source: "dictionary",
        example: said,
      });
      continue;
    }
    const single = lines.find((l) => {
      const words = lineWords(l.text);
      return words.length === 1 && wordKey(words[0] as string) === word;
    });
    const meaningFr = single?.translation_fr.trim() || alignedWord(lines, word, "translation_fr");
    const meaningEn = single?.translation_en.trim() || alignedWord(lines, word, "translation_en");
    suggestions.push({
      term: word,
      count,
      meaning_fr: meaningFr,
      meaning_en: meaningEn,
      source: meaningFr || meaningEn ? "line" : "none",
      example: said,
    });
  }
  return suggestions;
}
