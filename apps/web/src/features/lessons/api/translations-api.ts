import type {
  CourseImportResponse,
  Locale,
  TranslationFormat,
  TranslationsImportResponse,
} from "@parlons/contract";
import { api, apiFile } from "@/lib/api";
import { saveFile } from "@/lib/download";

const path = (courseId: string) => `/v1/courses/${courseId}/translations` as const;

/** Saves the course's lines and translations: CSV (every language) or XLIFF in one target language. */
export async function downloadTranslations(courseId: string, format: TranslationFormat, lang: Locale) {
  const file = await apiFile(path(courseId), { query: { format, lang } });
  const ext = format === "csv" ? "csv" : format === "xliff12" ? "xlf" : "xliff";
  saveFile(`lines${format === "csv" ? "" : `-${lang}`}.${ext}`, file);
}

/** Sends an edited translations file back: every row applied, or none (422 with the rows' errors). */
export function importTranslations(courseId: string, content: string) {
  return api<TranslationsImportResponse>(path(courseId), {
    method: "POST",
    body: { content },
    silent: true,
  }).then((r) => r.data);
}

/** Sends a drop of audio files and scripts (or zips of them): the course's next lessons, one item per lesson. */
export function importCourseFiles(courseId: string, files: File[]) {
  const form = new FormData();
  for (const file of files) form.append("file", file, file.name);
  return api<CourseImportResponse>(`/v1/courses/${courseId}/imports`, {
    method: "POST",
    body: form,
    silent: true,
  }).then((r) => r.data);
}
