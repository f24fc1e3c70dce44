/** The room a line has on the audio: after the line before it, before the line after it, inside the audio. */
export interface Span {
  start: number;
  end: number;
}

/** The shortest line (seconds): an edge never crosses the other. */
const MIN_LINE = 0.1;
/** A keyboard nudge: 50 ms. */
export const NUDGE = 0.05;

const round3 = (s: number) => Math.round(s * 1000) / 1000;

/**
 * Where the line at `index` may be placed as `wanted` (a drag of the waveform's region, or a nudge):
 * not over the line before or after it, not before 0 nor past the audio's end, never shorter than
 * 0.1 s. Lines are in time order. `clamped` says a limit was hit (the editor says why).
 */
export function placeLine(
  lines: readonly Span[],
  index: number,
  wanted: Span,
  duration: number | null,
): { start: number; end: number; clamped: boolean } {
  const before = lines[index - 1];
  const after = lines[index + 1];
  const low = Math.max(0, before?.end ?? 0);
  const high = Math.min(after?.start ?? Number.POSITIVE_INFINITY, duration ?? Number.POSITIVE_INFINITY);
  let start = Math.min(Math.max(wanted.start, low), high - MIN_LINE);
  let end = Math.max(Math.min(wanted.end, high), start + MIN_LINE);
  if (end > high) end = high;
  start = Math.max(low, Math.min(start, end - MIN_LINE));
  start = round3(start);
  end = round3(end);
  const clamped = Math.abs(start - wanted.start) > 0.0005 || Math.abs(end - wanted.end) > 0.0005;
  return { start, end, clamped };
}

/** Moves one edge of the line at `index` by `delta` seconds, within its room. */
export function nudgeLine(
  lines: readonly Span[],
  index: number,
  side: "start" | "end",
  delta: number,
  duration: number | null,
) {
  const line = lines[index];
  if (!line) return null;
  // an edge moved stops 0.1 s before the other one, which stays where it is
  const wanted =
    side === "start"
      ? { start: Math.min(line.start + delta, line.end - MIN_LINE), end: line.end }
      : { start: line.start, end: Math.max(line.end + delta, line.start + MIN_LINE) };
  const placed = placeLine(lines, index, wanted, duration);
  const moved = side === "start" ? line.start + delta : line.end + delta;
  return { ...placed, clamped: placed.clamped || Math.abs(placed[side] - moved) > 0.0005 };
}

/**
 * The lines that end past the audio's end, by index, as the server refuses them on saving
 * (LINE_PAST_AUDIO_END: more than 1 s past a duration counted in whole seconds): said on the line
 * before the save is tried.
 */
export function pastAudioEnd(lines: readonly Span[], duration: number | null): Set<number> {
  const past = new Set<number>();
  if (duration === null) return past;
  lines.forEach((line, i) => {
    if (line.end > duration + 1 || line.start >= duration + 1) past.add(i);
  });
  return past;
}
