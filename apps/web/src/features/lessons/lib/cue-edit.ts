import type { TimedCue } from "@parlons/contract";

/** A line in the editor: `key` tells React rows apart (new lines have no id yet). */
export interface EditedCue extends TimedCue {
  key: string;
}

let counter = 0;
const newKey = () => `cue-${++counter}`;
const round = (s: number) => Math.round(s * 100) / 100;

export function withKeys(cues: readonly TimedCue[]): EditedCue[] {
  return cues.map((c) => ({ ...c, key: c.id ?? newKey() }));
}

/**
 * The line at `index` starts at `at` (the audio's current time); the line before it, when it
 * ended where this one started, now ends there too, so lines stay back to back.
 */
export function setStart(cues: readonly EditedCue[], index: number, at: number): EditedCue[] {
  const cue = cues[index];
  if (!cue) return [...cues];
  const start = round(Math.max(0, Math.min(at, cue.end - 0.1)));
  return cues.map((c, i) => {
    if (i === index) return { ...c, start };
    if (i === index - 1 && Math.abs(c.end - cue.start) < 0.01 && start > c.start) return { ...c, end: start };
    return c;
  });
}

/**
 * Splits a line in two at `at` (inside the line), else at its middle; the words are shared out
 * in proportion to the time. The second half is a new line; translations stay with the first.
 */
export function splitCue(cues: readonly EditedCue[], index: number, at?: number): EditedCue[] {
  const cue = cues[index];
  if (!cue) return [...cues];
  const cut = round(
    at !== undefined && at > cue.start + 0.1 && at < cue.end - 0.1 ? at : (cue.start + cue.end) / 2,
  );
  const words = cue.text.split(/\s+/).filter(Boolean);
  const share = Math.min(
    Math.max(1, Math.round((words.length * (cut - cue.start)) / (cue.end - cue.start))),
    words.length - 1,
  );
  const first = words.length > 1 ? words.slice(0, share).join(" ") : cue.text;
  const second = words.length > 1 ? words.slice(share).join(" ") : cue.text;
  return [
    ...cues.slice(0, index),
    { ...cue, end: cut, text: first },
    {
      key: newKey(),
      start: cut,
      end: cue.end,
      text: second,
      translation_fr: "",
      translation_en: "",
      translation_es: "",
    },
    ...cues.slice(index + 1),
  ];
}

/** Joins a line with the next one: one span, texts and translations joined. */
export function mergeWithNext(cues: readonly EditedCue[], index: number): EditedCue[] {
  const cue = cues[index];
  const next = cues[index + 1];
  if (!cue || !next) return [...cues];
  const join = (a: string, b: string) => [a, b].filter((s) => s.trim()).join(" ");
  return [
    ...cues.slice(0, index),
    {
      ...cue,
      end: Math.max(cue.end, next.end),
      text: join(cue.text, next.text),
      translation_fr: join(cue.translation_fr, next.translation_fr),
      translation_en: join(cue.translation_en, next.translation_en),
      translation_es: join(cue.translation_es ?? "", next.translation_es ?? ""),
    },
    ...cues.slice(index + 2),
  ];
}

/** A new line at `at` (2 s long, shorter when the next line starts sooner), in time order. */
export function addCueAt(cues: readonly EditedCue[], at: number, duration?: number | null): EditedCue[] {
  const start = round(Math.max(0, at));
  const next = cues.find((c) => c.start > start);
  const limit = next?.start ?? (duration && duration > start ? duration : start + 2);
  const end = round(Math.min(start + 2, limit > start + 0.1 ? limit : start + 2));
  const added: EditedCue = {
    key: newKey(),
    start,
    end,
    text: "",
    translation_fr: "",
    translation_en: "",
    translation_es: "",
  };
  return [...cues, added].sort((a, b) => a.start - b.start);
}

/**
 * A text of several lines pasted into the line at `index` (audio without a script: its segments
 * wait for their texts): one text per non-empty line of the paste, filling that line and the
 * following ones in order, replacing their texts. `leftover`: the paste's lines with no line left.
 */
export function fillTexts(
  cues: readonly EditedCue[],
  index: number,
  pasted: string,
): { cues: EditedCue[]; filled: number; leftover: number } {
  const texts = pasted
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const room = Math.max(0, cues.length - index);
  const filled = Math.min(texts.length, room);
  return {
    cues: cues.map((c, i) =>
      i >= index && i < index + filled ? { ...c, text: texts[i - index] as string } : c,
    ),
    filled,
    leftover: texts.length - filled,
  };
}

/** Whether a paste is several lines (to fill the segments) rather than one line's text. */
export const isMultiLine = (pasted: string) =>
  pasted
    .trim()
    .split(/\r?\n/)
    .filter((l) => l.trim()).length > 1;

/** The line under the playhead at `at` seconds (its start ≤ at < its end), or -1. */
export function lineAt(cues: readonly EditedCue[], at: number): number {
  return cues.findIndex((c) => c.start <= at && at < c.end);
}

/**
 * The waveform's split at the playhead: the line under it cut in two there (`splitCue`), or null
 * when the playhead is between lines or within 0.1 s of an edge (no line would be left that short).
 */
export function splitAtPlayhead(
  cues: readonly EditedCue[],
  at: number,
): { cues: EditedCue[]; index: number } | null {
  const index = lineAt(cues, at);
  const cue = cues[index];
  if (!cue || at <= cue.start + 0.1 || at >= cue.end - 0.1) return null;
  return { cues: splitCue(cues, index, at), index };
}

/** The waveform's merge at the playhead: the line under it (else `selected`) joined with the next one. */
export function mergeAtPlayhead(
  cues: readonly EditedCue[],
  at: number,
  selected: number,
): { cues: EditedCue[]; index: number } | null {
  const under = lineAt(cues, at);
  const index = under >= 0 ? under : selected;
  if (index < 0 || index >= cues.length - 1) return null;
  return { cues: mergeWithNext(cues, index), index };
}
