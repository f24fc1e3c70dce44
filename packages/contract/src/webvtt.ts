import type { TimedCue } from "./transcripts";

const encode = (text: string) =>
  text.replace(/\s+/g, " ").trim().replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** `hh:mm:ss.ttt`, the WebVTT timestamp of `seconds`. */
export function vttTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/**
 * A lesson's lines as a WebVTT file (W3C WebVTT: a header, then one cue a line, numbered from 1):
 * the line's text, then its translations, each a `<lang fr>…</lang>` line of its own, which
 * players that do not know the span show as text. The staff editor downloads it, and the
 * learner's podcast feed points its `podcast:transcript` at it.
 */
export function cuesToWebVtt(
  cues: readonly Pick<TimedCue, "start" | "end" | "text" | "translation_fr" | "translation_en">[],
): string {
  const blocks = cues.map((cue, i) =>
    [
      String(i + 1),
      `${vttTime(cue.start)} --> ${vttTime(cue.end)}`,
      encode(cue.text),
      ...(["fr", "en"] as const)
        .filter((lang) => cue[`translation_${lang}`].trim())
        .map((lang) => `<lang ${lang}>${encode(cue[`translation_${lang}`])}</lang>`),
    ].join("\n"),
  );
  return `WEBVTT\n\n${blocks.map((b) => `${b}\n\n`).join("")}`;
}
