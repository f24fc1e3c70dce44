import { z } from "zod";
import { envelope } from "./common";
import { LOCALES } from "./locales";

/**
 * A course's lines and their translations as a file, to edit in a spreadsheet or a translation
 * tool and import back, matched by line id: CSV (every interface language a column) or XLIFF
 * 1.2 / 2.0 (one target language a file, as translation tools expect).
 */
export const TRANSLATION_FORMATS = ["csv", "xliff12", "xliff20"] as const;
export type TranslationFormat = (typeof TRANSLATION_FORMATS)[number];

/** Largest file imported, in characters (a course of many lessons of long lines, three languages). */
export const TRANSLATIONS_IMPORT_MAX = 4_000_000;

export const translationsExportQuery = z.object({
  format: z.enum(TRANSLATION_FORMATS).default("csv"),
  /** XLIFF only: the target language of the file (CSV carries every interface language). */
  lang: z.enum(LOCALES).default("en"),
});
export type TranslationsExportQuery = z.input<typeof translationsExportQuery>;

/** `POST /courses/{courseId}/translations`: the file's text; CSV or XLIFF (either version) is recognised. */
export const translationsImportBody = z
  .object({ content: z.string().min(1).max(TRANSLATIONS_IMPORT_MAX) })
  .meta({ examples: [{ content: "id,lesson,start,text,fr,en,es\n…" }] });
export type TranslationsImportBody = z.input<typeof translationsImportBody>;

export const translationsImportResult = z.object({
  format: z.enum(TRANSLATION_FORMATS),
  /** The interface languages the file carried. */
  languages: z.array(z.enum(LOCALES)),
  /** Lines whose translations changed. */
  updated: z.number().int(),
  /** Lines of the file whose translations were already these. */
  unchanged: z.number().int(),
});
export type TranslationsImportResult = z.infer<typeof translationsImportResult>;
export const translationsImportResponse = envelope(translationsImportResult);
export type TranslationsImportResponse = z.infer<typeof translationsImportResponse>;
