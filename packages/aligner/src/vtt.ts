/** WebVTT of aligned cues (one cue per line, in the script's order). */
import type { AlignedCue } from "./align.js";

function formatTimestamp(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** A cue's text cannot hold a blank line or the "-->" arrow in WebVTT. */
const cueText = (text: string) => text.replace(/\s*\n\s*/g, " ").replaceAll("-->", "→");

export function toWebVtt(cues: AlignedCue[]): string {
  const blocks = cues.map(
    (c) => `${c.index + 1}\n${formatTimestamp(c.start)} --> ${formatTimestamp(c.end)}\n${cueText(c.text)}`,
  );
  return `WEBVTT\n\n${blocks.join("\n\n")}\n`;
}
