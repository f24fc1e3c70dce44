import { open } from "node:fs/promises";
import path from "node:path";
import { splitScript } from "@parlons/aligner/script";
import {
  type AlignLanguageCode,
  type CourseImportItem,
  CUE_LIMITS,
  type ErrorCode,
  lessonBody,
  MAX_UPLOAD_BYTES,
} from "@parlons/contract";
import { AppError } from "../../lib/errors";
import type { AppServices } from "../../lib/module";
import { SNIFF_BYTES, sniff } from "../../lib/sniff";
import { readManifest, ScriptProblem, timedLines, titleFromName } from "./scripts";
import type { DroppedFile } from "./zip";

type Services = Pick<AppServices, "lessons" | "media" | "alignment">;

const problem = (file: string, code: ErrorCode, message: string) => ({ file, code, message });
const failed = (
  name: string,
  error: CourseImportItem["error"],
  audio: string | null = null,
  script: string | null = null,
): CourseImportItem => ({
  name,
  audio,
  script,
  status: "failed",
  lesson_id: null,
  job_id: null,
  error,
});

async function headOf(file: string): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const extOf = (name: string) => path.extname(name).slice(1).toLowerCase();
const stemOf = (name: string) => name.slice(0, name.length - path.extname(name).length);

/**
 * Makes lessons of a drop's files, in name order: each audio file with the script of the same
 * name. The audio goes through the single upload's checks (content sniffed, frames that fill the
 * file); a VTT or SRT script gives the lines their times, a plain text one is aligned by the
 * alignment job. A lesson is created only when its audio and its script are both usable, so a
 * failed one leaves nothing and is retried by dropping its files again. One file's failure is its
 * item's error and never stops the others.
 */
export async function importDrop(
  services: Services,
  drop: { courseId: string; ownerId: string; lang: AlignLanguageCode; files: DroppedFile[] },
): Promise<CourseImportItem[]> {
  const { lessons, media, alignment } = services;
  const items: CourseImportItem[] = [];
  let titles = new Map<string, { title_fr?: string; title_en?: string; free?: boolean }>();
  const groups = new Map<string, { audio?: DroppedFile; script?: DroppedFile }>();
  for (const file of drop.files) {
    const ext = extOf(file.name);
    const lower = file.name.toLowerCase();
    if (lower === "course.json" || lower === "course.csv") {
      try {
        const { readFile } = await import("node:fs/promises");
        titles = readManifest(await readFile(file.tempFile, "utf8"), ext as "json" | "csv");
      } catch (err) {
        const why = err instanceof ScriptProblem ? err.message : "it cannot be read";
        items.push(failed(file.name, problem(file.name, "IMPORT_SCRIPT_INVALID", `${file.name}: ${why}`)));
      }
      continue;
    }
    const kind = ext === "mp3" ? "audio" : ext === "txt" || ext === "vtt" || ext === "srt" ? "script" : null;
    if (!kind) {
      items.push(
        failed(
          file.name,
          problem(
            file.name,
            "UNSUPPORTED_MEDIA_TYPE",
            `${file.name}: neither an MP3 nor a script (.txt, .vtt, .srt)`,
          ),
        ),
      );
      continue;
    }
    const group = groups.get(stemOf(file.name)) ?? {};
    if (group[kind]) {
      items.push(
        failed(
          file.name,
          problem(file.name, "IMPORT_UNPAIRED", `${file.name}: another ${kind} has the same name`),
        ),
      );
      continue;
    }
    group[kind] = file;
    groups.set(stemOf(file.name), group);
  }

  const names = [...groups.keys()].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  for (const name of names) {
    const { audio, script } = groups.get(name) as { audio?: DroppedFile; script?: DroppedFile };
    items.push(await importOne(name, audio, script));
  }
  return items;

  async function importOne(
    name: string,
    audio?: DroppedFile,
    script?: DroppedFile,
  ): Promise<CourseImportItem> {
    const pair = [audio?.name ?? null, script?.name ?? null] as const;
    if (!audio) {
      const file = script?.name ?? name;
      return failed(
        name,
        problem(file, "IMPORT_UNPAIRED", `${file}: no audio file named ${name}.mp3`),
        ...pair,
      );
    }
    // the script first: a lesson is made only when both files are usable
    let lines: string[] | null = null;
    let timed: ReturnType<typeof timedLines> | null = null;
    if (script) {
      try {
        const { readFile } = await import("node:fs/promises");
        if (script.size > CUE_LIMITS.perLesson * CUE_LIMITS.text) throw new ScriptProblem("it is too long");
        const text = await readFile(script.tempFile, "utf8");
        const ext = extOf(script.name);
        if (ext === "txt") {
          lines = splitScript(text, drop.lang, "auto");
          if (lines.length === 0) throw new ScriptProblem("it has no line");
          if (lines.length > CUE_LIMITS.perLesson)
            throw new ScriptProblem(`it has over ${CUE_LIMITS.perLesson} lines`);
        } else timed = timedLines(text, ext as "vtt" | "srt");
      } catch (err) {
        const why = err instanceof ScriptProblem ? err.message : "it cannot be read";
        return failed(name, problem(script.name, "IMPORT_SCRIPT_INVALID", `${script.name}: ${why}`), ...pair);
      }
    }
    let audioKey: string;
    try {
      if (audio.size >= MAX_UPLOAD_BYTES)
        throw new AppError(413, "PAYLOAD_TOO_LARGE", "larger than an upload may be");
      const sniffed = await sniff(await headOf(audio.tempFile));
      if (!sniffed) throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "The file is not an MP3");
      const kept = await media.keep(drop.ownerId, { ...audio, sniffed, declaredType: "audio" });
      audioKey = kept.file_path;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return failed(name, problem(audio.name, err.code, `${audio.name}: ${err.message}`), ...pair);
    }
    const wanted = titles.get(name);
    const fallback = titleFromName(name);
    const lesson = await lessons.create(
      drop.courseId,
      lessonBody.parse({
        title_fr: wanted?.title_fr ?? wanted?.title_en ?? fallback,
        title_en: wanted?.title_en ?? wanted?.title_fr ?? fallback,
        audio: audioKey,
        free: wanted?.free ?? false,
        // a dropped lesson is a draft, as every new lesson: staff publish it once they checked it
        active: false,
      }),
    );
    const made = { name, audio: pair[0], script: pair[1], lesson_id: lesson.id, error: null };
    try {
      if (timed) {
        await lessons.replaceCues(drop.courseId, lesson.id, timed);
        return { ...made, status: "ready", job_id: null };
      }
      if (lines) {
        const job = await alignment.enqueue({
          lessonId: lesson.id,
          apply: "replace",
          lang: drop.lang,
          script: lines,
        });
        return { ...made, status: "aligning", job_id: job.id };
      }
      return { ...made, status: "ready", job_id: null };
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      await lessons.delete(drop.courseId, lesson.id);
      const file = script?.name ?? audio.name;
      return failed(name, problem(file, err.code, `${file}: ${err.message}`), ...pair);
    }
  }
}
