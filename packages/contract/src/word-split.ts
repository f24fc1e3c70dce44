/**
 * Words of a line as a transcript shows them and as the glossary, the dictionary and the word
 * cards key them (the API looks a tapped word up with these very functions). No zod and no other
 * module here: the lesson page loads this alone. A word is a run of letters and digits, as the
 * exercises' grading cuts lines (an apostrophe or a hyphen separates two words).
 */
const WORD = /[\p{L}\p{N}]+/gu;

/** A word as the glossary, the dictionary and the word cards key it: lower case, accents kept. */
export function wordKey(word: string): string {
  return word.trim().normalize("NFC").toLocaleLowerCase();
}

/** The words of a line, in order, as written. */
export function lineWords(text: string): string[] {
  return text.normalize("NFC").match(WORD) ?? [];
}

/** A line cut into words and what lies between them, in order, for a transcript to make each word a button. */
export function splitWords(text: string): { text: string; word: boolean }[] {
  const parts: { text: string; word: boolean }[] = [];
  const source = text.normalize("NFC");
  let at = 0;
  for (const match of source.matchAll(WORD)) {
    if (match.index > at) parts.push({ text: source.slice(at, match.index), word: false });
    parts.push({ text: match[0], word: true });
    at = match.index + match[0].length;
  }
  if (at < source.length) parts.push({ text: source.slice(at), word: false });
  return parts;
}
