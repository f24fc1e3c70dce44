/**
 * Audio without a script: lines proposed at the recording's pauses, each a stretch of speech that
 * works at once as a "repeat after me" segment and whose text staff type afterwards.
 *
 * The pauses are signal mode's (speech.ts): a boundary is a pause of at least MIN_PAUSE; stretches
 * with little speech (an intro jingle, a click) are dropped; a stretch shorter than MIN_LINE is
 * joined to the nearer of its neighbours when a short pause parts them (a word said just after a
 * phrase), and stays a line of its own after a clear pause (a one-word line: "Oui."); one longer
 * than MAX_LINE is cut at its longest inner pause (or dip), again until every line fits. More
 * lines than `maxLines` (a lesson's limit) are refused with TOO_MANY_LINES, never cut silently.
 */
import { type DecodedAudio, decodeAudio } from "./decode.js";
import { computeFeatures, FRAME_SECONDS } from "./features.js";
import { analyseSpeech, type Pause } from "./speech.js";

export interface ProposedLine {
  /** seconds */
  start: number;
  end: number;
}

export interface ProposeResult {
  /** seconds of audio */
  duration: number;
  lines: ProposedLine[];
  /** every pause found, in seconds, strongest first within a line: for an editor's "snap to pause" */
  pauses: { start: number; end: number; strength: number }[];
}

/** frames: a pause this long ends a sentence or a phrase (0.25 s) */
const MIN_PAUSE = 25;
/** frames: a line shorter than this (0.8 s) is joined to a neighbour */
const MIN_LINE = 80;
/** frames: a line longer than this (12 s) is cut at its longest inner pause */
const MAX_LINE = 1200;
/** speech frames (sum of presence) under which a stretch is not speech (0.1 s: a one-word line of 0.2 s is) */
const MIN_SPEECH = 10;
/** frames: a short stretch further than this (0.45 s) from both neighbours is a line of its own */
const JOIN_GAP = 45;

/** More lines than a lesson holds: the audio is to be cut into several lessons. */
class TooManyLinesError extends Error {
  readonly code = "TOO_MANY_LINES";
  constructor(
    readonly count: number,
    readonly max: number,
  ) {
    super(`The audio gives ${count} lines, more than the ${max} a lesson holds: cut it into several lessons`);
  }
}

interface Stretch {
  start: number;
  end: number;
}

export async function proposeLines(
  audio: Uint8Array | DecodedAudio,
  options: { onProgress?: (fraction: number) => void; maxLines?: number } = {},
): Promise<ProposeResult> {
  const decoded = audio instanceof Uint8Array ? await decodeAudio(audio) : audio;
  options.onProgress?.(0.4);
  const features = computeFeatures(decoded.samples);
  options.onProgress?.(0.7);
  const { presence, pauses } = analyseSpeech(features);
  options.onProgress?.(0.9);
  const mass = new Float64Array(presence.length + 1);
  for (let t = 0; t < presence.length; t++) mass[t + 1] = (mass[t] as number) + (presence[t] as number);
  const speechIn = (s: Stretch) => (mass[s.end] as number) - (mass[s.start] as number);

  // stretches between clear pauses, trimmed to where the speech is
  let stretches: Stretch[] = [];
  let from = 0;
  for (const p of pauses) {
    if (p.end - p.start < MIN_PAUSE && p.start > 0 && p.end < presence.length) continue;
    if (p.start > from) stretches.push({ start: from, end: p.start });
    from = p.end;
  }
  if (from < presence.length) stretches.push({ start: from, end: presence.length });
  stretches = stretches.filter((s) => speechIn(s) >= MIN_SPEECH);

  // too short: joined to the nearer neighbour
  for (let i = 0; i < stretches.length && stretches.length > 1; ) {
    const s = stretches[i] as Stretch;
    if (s.end - s.start >= MIN_LINE) {
      i++;
      continue;
    }
    const before = stretches[i - 1];
    const after = stretches[i + 1];
    const gapBefore = before ? s.start - before.end : Number.POSITIVE_INFINITY;
    const gapAfter = after ? after.start - s.end : Number.POSITIVE_INFINITY;
    if (Math.min(gapBefore, gapAfter) > JOIN_GAP) {
      i++;
      continue;
    }
    const joinBefore = before && gapBefore <= gapAfter;
    if (joinBefore) {
      before.end = s.end;
      stretches.splice(i, 1);
    } else if (after) {
      after.start = s.start;
      stretches.splice(i, 1);
    } else i++;
  }

  // too long: cut at the longest pause (or deepest dip) inside, until every line fits
  const lines: Stretch[] = [];
  const split = (s: Stretch) => {
    if (s.end - s.start <= MAX_LINE) {
      lines.push(s);
      return;
    }
    let best: Pause | undefined;
    for (const p of pauses) {
      if (p.start <= s.start + MIN_LINE || p.end >= s.end - MIN_LINE) continue;
      if (!best || p.strength > best.strength) best = p;
    }
    if (!best) {
      lines.push(s);
      return;
    }
    split({ start: s.start, end: best.start });
    split({ start: best.end, end: s.end });
  };
  for (const s of stretches) split(s);
  if (options.maxLines !== undefined && lines.length > options.maxLines)
    throw new TooManyLinesError(lines.length, options.maxLines);

  const seconds = (f: number) => Math.round(f * FRAME_SECONDS * 1000) / 1000;
  return {
    duration: Math.round(decoded.duration * 1000) / 1000,
    lines: lines.map((s) => ({ start: seconds(s.start), end: seconds(s.end) })),
    pauses: pauses
      .filter((p) => p.end - p.start >= 2)
      .map((p) => ({
        start: seconds(p.start),
        end: seconds(p.end),
        strength: Math.round(p.strength * 100) / 100,
      })),
  };
}
