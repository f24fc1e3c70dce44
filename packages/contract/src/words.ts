import { z } from "zod";
import { envelope, pageQuery, pagination } from "./common";
import { reviewCard } from "./review";

/**
 * Words a learner taps in a lesson's transcript: the course's glossary (written by staff), a
 * bilingual dictionary the operator installed (dictd format, optional), and the learner's word
 * cards in their review deck.
 */

export const GLOSSARY_LIMITS = {
  term: 80,
  meaning: 500,
  note: 500,
  csvBytes: 512 * 1024,
  entries: 5000,
} as const;

const meaning = z.string().trim().max(GLOSSARY_LIMITS.meaning);

export const glossaryEntryBody = z
  .object({
    term: z.string().trim().min(1).max(GLOSSARY_LIMITS.term),
    meaning_fr: meaning.default(""),
    meaning_en: meaning.default(""),
    note: z.string().trim().max(GLOSSARY_LIMITS.note).default(""),
  })
  .refine((b) => b.meaning_fr !== "" || b.meaning_en !== "", {
    path: ["meaning_fr"],
    message: "Give the meaning in French or in English",
  });
export type GlossaryEntryBody = z.input<typeof glossaryEntryBody>;

export const glossaryEntry = z
  .object({
    id: z.string(),
    course_id: z.string(),
    term: z.string(),
    meaning_fr: z.string(),
    meaning_en: z.string(),
    note: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "GlossaryEntry" });
export type GlossaryEntry = z.infer<typeof glossaryEntry>;

export const glossaryParams = z.object({ courseId: z.uuid() });
export const glossaryEntryParams = z.object({ courseId: z.uuid(), id: z.uuid() });
export const glossaryListQuery = pageQuery.extend({ q: z.string().trim().max(80).optional() });
export const glossaryListResponse = envelope(z.object({ entries: z.array(glossaryEntry), pagination }));
export const glossaryEntryResponse = envelope(z.object({ entry: glossaryEntry }));

/** Why a line of an imported CSV was left out (the web says it in the reader's language). */
export const GLOSSARY_ROW_ERRORS = [
  "UNCLOSED_QUOTE",
  "TOO_MANY_COLUMNS",
  "TERM_MISSING",
  "TERM_TOO_LONG",
  "MEANING_MISSING",
  "MEANING_TOO_LONG",
  "DUPLICATE_TERM",
  "TOO_MANY_ENTRIES",
] as const;
export type GlossaryRowError = (typeof GLOSSARY_ROW_ERRORS)[number];

/**
 * A CSV of `term,meaning_fr,meaning_en,note` (a first line naming these columns is read as a
 * header; comma or semicolon separated, quotes as RFC 4180).
 */
export const glossaryImportBody = z.object({ csv: z.string().min(1).max(GLOSSARY_LIMITS.csvBytes) });
export const glossaryImportResponse = envelope(
  z.object({
    created: z.number().int(),
    updated: z.number().int(),
    /** One per line left out: its line number in the file (1 is the first), why, and the English reason. */
    errors: z.array(
      z.object({ line: z.number().int(), code: z.enum(GLOSSARY_ROW_ERRORS), message: z.string() }),
    ),
  }),
);
export type GlossaryImportResult = z.infer<typeof glossaryImportResponse>["data"];

/** A word of the course's lines not yet in its glossary, with a meaning to start from. */
export const glossarySuggestion = z.object({
  term: z.string(),
  /** How many times the course's lines say it. */
  count: z.number().int(),
  meaning_fr: z.string(),
  meaning_en: z.string(),
  /** Where the meaning came from: the dictionary, a line saying only this word, or nowhere yet (""). */
  source: z.enum(["dictionary", "line", "none"]),
  /** A line that says it, with its translations, for staff to write the meaning from. */
  example: z.object({ text: z.string(), translation_fr: z.string(), translation_en: z.string() }),
});
export type GlossarySuggestion = z.infer<typeof glossarySuggestion>;
export const glossarySuggestionsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(30),
});
export const glossarySuggestionsResponse = envelope(z.object({ suggestions: z.array(glossarySuggestion) }));

/** A learner's word: not in their deck (new), in it and being learnt, or known (graduated to review). */
export const WORD_STATUSES = ["new", "learning", "known"] as const;
export type WordStatus = (typeof WORD_STATUSES)[number];

/** One meaning of a word: from the course's glossary or from an installed dictionary (named). */
export const wordMeaning = z.object({
  source: z.enum(["glossary", "dictionary"]),
  /** The dictionary's name (its files' name, e.g. freedict-fra-eng); null for the glossary. */
  dictionary: z.string().nullable(),
  meaning_fr: z.string(),
  meaning_en: z.string(),
  note: z.string(),
});
export type WordMeaning = z.infer<typeof wordMeaning>;

export const lessonWordParams = z.object({ lessonId: z.uuid() });
export const wordLookupQuery = z.object({ word: z.string().trim().min(1).max(GLOSSARY_LIMITS.term) });
export const wordLookupResponse = envelope(
  z.object({
    word: z.string(),
    language: z.string(),
    meanings: z.array(wordMeaning),
    status: z.enum(WORD_STATUSES),
  }),
);
export type WordLookup = z.infer<typeof wordLookupResponse>["data"];

export const wordAddBody = z.object({
  word: z.string().trim().min(1).max(GLOSSARY_LIMITS.term),
  /** The line it was tapped in (the card shows it as the word's context). */
  cue_id: z.uuid(),
});
export const wordAddResponse = envelope(
  z.object({ card: reviewCard, word: z.string(), status: z.enum(WORD_STATUSES), added: z.boolean() }),
);

export const wordStatusesQuery = z.object({ language: z.string().min(2).max(8) });
export const wordStatusesResponse = envelope(
  z.object({
    language: z.string(),
    /** The learner's words in this language (those in their deck); any other word is new. */
    words: z.array(z.object({ word: z.string(), status: z.enum(["learning", "known"]) })),
  }),
);
export type WordStatuses = z.infer<typeof wordStatusesResponse>["data"];

export const wordCountsResponse = envelope(
  z.object({
    languages: z.array(
      z.object({ language: z.string(), known: z.number().int(), learning: z.number().int() }),
    ),
  }),
);
export type WordCounts = z.infer<typeof wordCountsResponse>["data"];
