import { LOCALES, type Locale, type TranslationFormat } from "@parlons/contract";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import type { XliffDocument } from "xliff/js2xliff";
import js2xliff from "xliff/js2xliff";
import jsToXliff12 from "xliff/jsToXliff12";
import xliff2js from "xliff/xliff2js";
import xliff12ToJs from "xliff/xliff12ToJs";
import { AppError } from "../../lib/errors";
import type { CourseLine, LineTranslationsRow } from "../lessons/line-translations";

/**
 * A course's lines as a translations file and back: CSV (csv-stringify / csv-parse) with a column
 * per interface language, or XLIFF 1.2 / 2.0 (the xliff package) with one target language a file,
 * a `<file>` a lesson, a unit a line (its id the line's, its note the line's start).
 */
const CSV_COLUMNS = ["id", "lesson", "start", "text", ...LOCALES] as const;

const lessonLabel = (line: CourseLine) => `${line.lessonPosition + 1}. ${line.lessonTitle}`;

export function linesToFile(
  lines: readonly CourseLine[],
  format: TranslationFormat,
  sourceLanguage: string,
  lang: Locale,
): Promise<string> | string {
  if (format === "csv")
    return stringify(
      lines.map((l) => [
        l.id,
        lessonLabel(l),
        l.start.toFixed(2),
        l.text,
        ...LOCALES.map((c) => l.translations[c]),
      ]),
      // a byte-order mark so that spreadsheets read UTF-8; every cell quoted where needed
      { header: true, columns: [...CSV_COLUMNS], bom: true, record_delimiter: "\r\n" },
    );
  const doc: XliffDocument = { sourceLanguage, targetLanguage: lang, resources: {} };
  for (const line of lines) {
    const file = `lesson-${line.lessonPosition + 1}-${line.lessonId}`;
    doc.resources[file] ??= {};
    doc.resources[file][line.id] = {
      source: line.text,
      target: line.translations[lang],
      note: `start ${line.start.toFixed(2)} s · ${lessonLabel(line)}`,
    };
  }
  return format === "xliff12" ? jsToXliff12(doc) : js2xliff(doc);
}

const unreadable = (why: string) =>
  new AppError(422, "TRANSLATIONS_UNREADABLE", `The file cannot be read: ${why}`, { content: [why] });

const isLocale = (s: string): s is Locale => (LOCALES as readonly string[]).includes(s);

function csvRows(content: string): { languages: Locale[]; rows: LineTranslationsRow[] } {
  const firstLine = content.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  // spreadsheets set to French write semicolons
  const delimiter = firstLine.includes(";") && !firstLine.includes(",") ? ";" : ",";
  let records: string[][];
  try {
    records = parse(content, { bom: true, delimiter, relax_column_count: true, skip_empty_lines: true });
  } catch (err) {
    throw unreadable((err as Error).message);
  }
  const header = (records[0] ?? []).map((h) => h.trim().toLowerCase());
  const idAt = header.indexOf("id");
  if (idAt < 0) throw unreadable('no "id" column in the first row');
  const languages = LOCALES.filter((l) => header.includes(l));
  if (languages.length === 0) throw unreadable(`no language column (${LOCALES.join(", ")})`);
  const rows = records.slice(1).map((cells, i) => ({
    where: `row ${i + 2}`,
    id: (cells[idAt] ?? "").trim(),
    translations: Object.fromEntries(languages.map((l) => [l, cells[header.indexOf(l)] ?? ""])),
  }));
  return { languages, rows };
}

async function xliffRows(content: string): Promise<{ languages: Locale[]; rows: LineTranslationsRow[] }> {
  // no document type: nothing for the parser to expand
  if (/<!DOCTYPE|<!ENTITY/i.test(content)) throw unreadable("a document type declaration is not accepted");
  const version2 = /<xliff[^>]*\bversion\s*=\s*["']2/.test(content);
  let doc: XliffDocument;
  try {
    doc = version2 ? await xliff2js(content) : await xliff12ToJs(content);
  } catch (err) {
    throw unreadable((err as Error).message.split("\n")[0] ?? "not XLIFF");
  }
  const lang = String(doc.targetLanguage ?? "")
    .toLowerCase()
    .split(/[-_]/)[0] as string;
  if (!isLocale(lang))
    throw unreadable(`the target language "${doc.targetLanguage ?? ""}" is none of ${LOCALES.join(", ")}`);
  const rows: LineTranslationsRow[] = [];
  for (const units of Object.values(doc.resources ?? {}))
    for (const [id, unit] of Object.entries(units ?? {}))
      rows.push({ where: `unit ${id}`, id, translations: { [lang]: String(unit?.target ?? "") } });
  return { languages: [lang], rows };
}

/** The rows of an imported file, CSV or XLIFF (told apart by their first character). */
export async function fileToRows(
  content: string,
): Promise<{ format: TranslationFormat; languages: Locale[]; rows: LineTranslationsRow[] }> {
  const text = content.replace(/^\uFEFF/, "").trimStart();
  if (text.startsWith("<")) {
    const version = /<xliff[^>]*\bversion\s*=\s*["']2/.test(text) ? "xliff20" : "xliff12";
    return { format: version, ...(await xliffRows(text)) };
  }
  return { format: "csv", ...csvRows(text) };
}
