import { cuesToTranscript, cuesToWebVtt, type TimedCue, transcriptToCues } from "@parlons/contract";
import webvtt from "node-webvtt";

/** Why a file could not be read as lines: the editor shows it translated. */
export class CueFormatError extends Error {
  constructor(readonly reason: "invalid-vtt" | "no-lines") {
    super(reason);
  }
}

// a translation rides in its cue as a WebVTT language span on a line of its own
const TRANSLATION_LINE = /^<lang (fr|en)[^>]*>([\s\S]*)<\/lang>$/i;
const TAG = /<[^>]+>/g;
const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&nbsp;": " " };
const decodeEntities = (text: string) => text.replace(/&(amp|lt|gt|nbsp);/g, (m) => ENTITIES[m] ?? m);
const clean = (text: string) => decodeEntities(text.replace(TAG, "")).replace(/\s+/g, " ").trim();

/**
 * Lines of a WebVTT file (node-webvtt's parser). The cue's text is the line; lines of the form
 * `<lang fr>…</lang>` / `<lang en>…</lang>` are its translations (what `cuesToVtt` writes).
 * Other markup (voices, styles) is dropped.
 */
export function vttToCues(content: string): TimedCue[] {
  let parsed: ReturnType<typeof webvtt.parse>;
  try {
    parsed = webvtt.parse(content.replace(/^\uFEFF/, ""), { strict: false });
  } catch {
    throw new CueFormatError("invalid-vtt");
  }
  return parsed.cues
    .filter((cue) => cue.end > cue.start)
    .map((cue) => {
      const result: TimedCue = {
        start: cue.start,
        end: cue.end,
        text: "",
        translation_fr: "",
        translation_en: "",
      };
      const text: string[] = [];
      for (const line of cue.text.split("\n")) {
        const translation = TRANSLATION_LINE.exec(line.trim());
        if (translation) {
          const lang = (translation[1] as string).toLowerCase() as "fr" | "en";
          result[`translation_${lang}`] = clean(translation[2] as string);
        } else text.push(line);
      }
      result.text = clean(text.join(" "));
      return result;
    })
    .filter((cue) => cue.text.length > 0)
    .sort((a, b) => a.start - b.start);
}

/** A WebVTT file of the lines, translations as `<lang>` lines (the contract's writer, shared with the podcast feed). */
export const cuesToVtt = (cues: readonly TimedCue[]) => cuesToWebVtt(cues);

/**
 * Lines from an imported file: WebVTT when it starts with `WEBVTT`, else the `[mm:ss] sentence`
 * format (a line ends where the next starts, the last one at the audio's end).
 */
export function importCues(content: string, duration?: number | null): TimedCue[] {
  const vtt = /^\uFEFF?WEBVTT/.test(content);
  const cues = vtt ? vttToCues(content) : transcriptToCues(content, duration);
  if (cues.length === 0) throw new CueFormatError("no-lines");
  return cues;
}

/** The lines as `[mm:ss] sentence` text. */
export const cuesToTimestamps = (cues: readonly TimedCue[]) => cuesToTranscript(cues);
