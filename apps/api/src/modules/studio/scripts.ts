import {
  type CourseImportManifest,
  CUE_LIMITS,
  courseImportManifest,
  type LessonCueInput,
} from "@parlons/contract";
import { parse as parseCsv } from "csv-parse/sync";
import webvtt from "node-webvtt";

/** Why a script or a manifest of a drop cannot be used. */
export class ScriptProblem extends Error {}

const TAG = /<[^>]+>/g;
const clean = (text: string) => text.replace(TAG, "").replace(/\s+/g, " ").trim();

/** An SRT file as WebVTT: the header, and commas before milliseconds made dots. */
const srtToVtt = (srt: string) =>
  `WEBVTT\n\n${srt.replace(/(\d{2}:\d{2}:\d{2}),(\d{3})/g, "$1.$2").replace(/^\d+\s*$/gm, "")}`;

/** The timed lines of a WebVTT or SRT script (node-webvtt's parser), in order. */
export function timedLines(content: string, ext: "vtt" | "srt"): LessonCueInput[] {
  const text = content.replace(/^\uFEFF/, "");
  let cues: { start: number; end: number; text: string }[];
  try {
    cues = webvtt.parse(ext === "srt" ? srtToVtt(text) : text, { strict: false }).cues;
  } catch (err) {
    throw new ScriptProblem(`it is not valid ${ext.toUpperCase()} (${(err as Error).message})`);
  }
  const lines = cues
    .map((c) => ({ start: c.start, end: c.end, text: clean(c.text) }))
    .filter((c) => c.text.length > 0);
  if (lines.length === 0) throw new ScriptProblem("it has no line");
  if (lines.length > CUE_LIMITS.perLesson)
    throw new ScriptProblem(`it has over ${CUE_LIMITS.perLesson} lines`);
  const bad = lines.findIndex((c) => !(c.end > c.start) || c.text.length > CUE_LIMITS.text);
  if (bad >= 0) throw new ScriptProblem(`line ${bad + 1} ends before it starts or is too long`);
  return lines;
}

type Titles = Map<string, CourseImportManifest["lessons"][number]>;

/** `course.json` or `course.csv` (name, title_fr, title_en, free): titles by the lesson's shared name. */
export function readManifest(content: string, ext: "json" | "csv"): Titles {
  let lessons: unknown;
  try {
    if (ext === "json")
      lessons = (JSON.parse(content.replace(/^\uFEFF/, "")) as { lessons?: unknown }).lessons;
    else
      lessons = (
        parseCsv(content, { bom: true, columns: true, skip_empty_lines: true }) as Record<string, string>[]
      ).map((r) => ({
        ...r,
        free: r.free === undefined || r.free === "" ? undefined : /^(1|true|yes|oui|sí|si)$/i.test(r.free),
      }));
  } catch (err) {
    throw new ScriptProblem(`it cannot be read (${(err as Error).message})`);
  }
  const parsed = courseImportManifest.safeParse({ lessons });
  if (!parsed.success)
    throw new ScriptProblem(`its lessons are not as expected (${parsed.error.issues[0]?.message ?? "?"})`);
  return new Map(parsed.data.lessons.map((l) => [l.name, l]));
}

/** A title from a file's name: `01-bonjour_tout` → "Bonjour tout". */
export function titleFromName(name: string): string {
  const words =
    name
      .replace(/^[\d\s._-]+/, "")
      .replace(/[_-]+/g, " ")
      .trim() || name;
  return (words.charAt(0).toUpperCase() + words.slice(1)).slice(0, 200);
}
