import type { PracticeGrade, PracticeResultBody } from "./practice";
import type { ReviewRating } from "./review";
import { isStopWord } from "./stop-words";

/**
 * Grading of the exercises made from lesson lines (dictation, cloze, typed recall). The server
 * grades every result with these functions; the web app runs the same ones to show the result at
 * once, offline too. Case and punctuation never count; accents count unless the learner's setting
 * says otherwise.
 */

export interface GradingOptions {
  /** The learner's setting: "é" and "e" are the same letter. */
  ignoreAccents: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a line, in order, as written (an apostrophe or a hyphen separates two words). */
export function wordsOf(text: string): string[] {
  return text.normalize("NFC").match(WORD) ?? [];
}

/** A word as grading compares it: lower case, and without its accents when the learner asks. */
export function normalizeWord(word: string, options: GradingOptions): string {
  const lower = word.normalize("NFC").toLocaleLowerCase();
  if (!options.ignoreAccents) return lower;
  return lower
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/œ/g, "oe")
    .replace(/æ/g, "ae")
    .replace(/ß/g, "ss");
}

/**
 * One step of the word-by-word comparison: a word right, wrong (or right but for its accents),
 * missing from the answer, or given in excess.
 */
export type WordDiff =
  | { op: "ok"; expected: string; given: string }
  | { op: "wrong"; expected: string; given: string }
  | { op: "accent"; expected: string; given: string }
  | { op: "missing"; expected: string }
  | { op: "extra"; given: string };

/** Edits (insert, delete, replace a letter) from one word to another. */
function letterDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next.push(
        Math.min(
          (row[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
          (row[j] ?? 0) + 1,
          (next[j - 1] ?? 0) + 1,
        ),
      );
    row = next;
  }
  return row[b.length] ?? 0;
}

/** A word missing or given in excess costs 100; a word replaced costs up to twice that, by how far it is. */
const GAP = 100;
function replaceCost(a: string, b: string): number {
  if (a === b) return 0;
  if (normalizeWord(a, { ignoreAccents: true }) === normalizeWord(b, { ignoreAccents: true })) return GAP / 2;
  return Math.round((2 * GAP * letterDistance(a, b)) / Math.max(a.length, b.length));
}

/**
 * The word-by-word alignment of an answer with the line: the fewest, smallest edits (a word
 * close to the expected one is taken as that word misspelled, a far one as a word missing and
 * another given in excess).
 */
export function diffWords(expected: string, answer: string, options: GradingOptions): WordDiff[] {
  const want = wordsOf(expected);
  const got = wordsOf(answer);
  const a = want.map((w) => normalizeWord(w, options));
  const b = got.map((w) => normalizeWord(w, options));
  const width = b.length + 1;
  // cost[i * width + j]: edits to turn the first i expected words into the first j given ones
  const cost = new Int32Array((a.length + 1) * width);
  const at = (i: number, j: number) => cost[i * width + j] ?? 0;
  const replace = (i: number, j: number) => replaceCost(a[i - 1] ?? "", b[j - 1] ?? "");
  for (let i = 0; i <= a.length; i++)
    for (let j = 0; j <= b.length; j++)
      cost[i * width + j] =
        i === 0 || j === 0
          ? (i + j) * GAP
          : Math.min(at(i - 1, j - 1) + replace(i, j), at(i - 1, j) + GAP, at(i, j - 1) + GAP);
  const steps: WordDiff[] = [];
  const loose = { ignoreAccents: true };
  let i = a.length;
  let j = b.length;
  while (i > 0 || j > 0) {
    const expectedWord = want[i - 1] ?? "";
    const given = got[j - 1] ?? "";
    if (i > 0 && j > 0 && at(i, j) === at(i - 1, j - 1) + replace(i, j)) {
      const op =
        a[i - 1] === b[j - 1]
          ? "ok"
          : normalizeWord(expectedWord, loose) === normalizeWord(given, loose)
            ? "accent"
            : "wrong";
      steps.push({ op, expected: expectedWord, given });
      i--;
      j--;
    } else if (i > 0 && at(i, j) === at(i - 1, j) + GAP) {
      steps.push({ op: "missing", expected: expectedWord });
      i--;
    } else {
      steps.push({ op: "extra", given });
      j--;
    }
  }
  return steps.reverse();
}

/** What an exercise's result comes to: its FSRS grade and the share of words right (0 to 1). */
export interface ExerciseGrade {
  rating: ReviewRating;
  accuracy: number;
  /** Every word right (every blank, for a cloze). */
  correct: boolean;
}

/** Words right over the words of the line plus those given in excess, rounded to 1/1000. */
function accuracyOf(diff: WordDiff[]): number {
  const right = diff.filter((d) => d.op === "ok").length;
  const total = diff.length;
  return total === 0 ? 1 : Math.round((right / total) * 1000) / 1000;
}

/**
 * A dictation (or a typed recall): every word right is Good; at least 80 % right is Hard (recalled
 * with errors); less is a failed dictation, Again.
 */
export function gradeDictation(
  expected: string,
  answer: string,
  options: GradingOptions,
): ExerciseGrade & { diff: WordDiff[] } {
  const diff = diffWords(expected, answer, options);
  const accuracy = accuracyOf(diff);
  const correct = accuracy === 1;
  const rating: ReviewRating = correct ? 3 : accuracy >= 0.8 ? 2 : 1;
  return { rating, accuracy, correct, diff };
}

// ------------------------------------------------------------------ cloze

/** Content words of a course's lines and how often each occurs (lower case, accents kept). */
export function courseVocabulary(texts: string[], language: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts)
    for (const word of wordsOf(text)) {
      const key = word.toLocaleLowerCase();
      if (isBlankable(key, language)) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  return counts;
}

/** Shorter words are mostly grammar; numbers are not vocabulary. */
const MIN_BLANK_LENGTH = 4;

function isBlankable(lower: string, language: string): boolean {
  return lower.length >= MIN_BLANK_LENGTH && !/\p{N}/u.test(lower) && !isStopWord(lower, language);
}

/** A line of this many words or more gets two blanks (when it has two content words). */
const TWO_BLANKS_FROM = 8;

/**
 * The words of a line a cloze blanks (their indices in `wordsOf(text)`, in order): never a stop
 * word nor a word under four letters; the words the course uses most (worth learning), longer
 * first among equals (up to eight letters), earlier first among those. One blank, two from eight
 * words; none when the line has no content word.
 */
export function chooseClozeBlanks(text: string, vocabulary: Map<string, number>, language: string): number[] {
  const words = wordsOf(text);
  const seen = new Set<string>();
  const candidates = words.flatMap((word, index) => {
    const lower = word.toLocaleLowerCase();
    if (!isBlankable(lower, language) || seen.has(lower)) return [];
    seen.add(lower);
    return [{ index, score: (vocabulary.get(lower) ?? 1) * Math.min(lower.length, 8) }];
  });
  candidates.sort((x, y) => y.score - x.score || x.index - y.index);
  const count = words.length >= TWO_BLANKS_FROM ? 2 : 1;
  return candidates
    .slice(0, count)
    .map((c) => c.index)
    .sort((x, y) => x - y);
}

/** A small stable hash (FNV-1a), so that a word's choices come out in the same order every time. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * The choices offered for one blank: the word and up to three distractors from the same course's
 * vocabulary, of a length close to it (closest first, then the most used), in an order that
 * depends on the word only. Just the word when the course has no other.
 */
export function clozeChoices(word: string, vocabulary: Map<string, number>, count = 3): string[] {
  const answer = word.toLocaleLowerCase();
  const loose = normalizeWord(answer, { ignoreAccents: true });
  const others = [...vocabulary.entries()]
    .filter(([w]) => normalizeWord(w, { ignoreAccents: true }) !== loose)
    .sort(
      ([a, ca], [b, cb]) =>
        Math.abs(a.length - answer.length) - Math.abs(b.length - answer.length) ||
        cb - ca ||
        (a < b ? -1 : 1),
    )
    .slice(0, count)
    .map(([w]) => w);
  const choices = [answer, ...others];
  const seed = hash(answer);
  return choices
    .map((w, i) => ({ w, k: hash(`${seed}:${w}:${i}`) }))
    .sort((x, y) => x.k - y.k)
    .map((c) => c.w);
}

/** One blank of a cloze as graded. */
export interface BlankGrade {
  index: number;
  expected: string;
  given: string;
  correct: boolean;
}

/**
 * A cloze: each blank right or not (one word, compared as in a dictation). All right is Good,
 * some is Hard, none is Again. `blanks` must be word indices of the line (`clozeBlanksValid`).
 */
export function gradeCloze(
  text: string,
  blanks: number[],
  answers: string[],
  options: GradingOptions,
): ExerciseGrade & { blanks: BlankGrade[] } {
  const words = wordsOf(text);
  const graded = blanks.map((index, i) => {
    const expected = words[index] ?? "";
    const given = (answers[i] ?? "").trim();
    const givenWords = wordsOf(given);
    const correct =
      givenWords.length === 1 &&
      normalizeWord(givenWords[0] ?? "", options) === normalizeWord(expected, options);
    return { index, expected, given, correct };
  });
  const right = graded.filter((b) => b.correct).length;
  const accuracy = graded.length === 0 ? 0 : Math.round((right / graded.length) * 1000) / 1000;
  const rating: ReviewRating = right === graded.length ? 3 : right > 0 ? 2 : 1;
  return { rating, accuracy, correct: right === graded.length, blanks: graded };
}

/** Whether `blanks` are distinct word indices of `text`, as many as `answers`, in order. */
export function clozeBlanksValid(text: string, blanks: number[], answers: string[]): boolean {
  const n = wordsOf(text).length;
  return (
    blanks.length === answers.length &&
    blanks.every((b, i) => Number.isInteger(b) && b >= 0 && b < n && (i === 0 || b > (blanks[i - 1] ?? -1)))
  );
}

/** A result as its grade: the same function on the server (the authority) and in the browser. */
export function gradeResult(text: string, result: PracticeResultBody): PracticeGrade {
  const options = { ignoreAccents: result.ignore_accents };
  switch (result.kind) {
    case "dictation":
    case "recall_typed": {
      const { diff, ...grade } = gradeDictation(text, result.answer, options);
      return { ...grade, diff, blanks: [] };
    }
    case "cloze":
      return { ...gradeCloze(text, result.blanks, result.answers, options), diff: [] };
    case "recall_spoken":
      return {
        rating: result.rating,
        accuracy: result.rating > 1 ? 1 : 0,
        correct: result.rating > 1,
        diff: [],
        blanks: [],
      };
  }
}
