import type { Span } from "./line-bounds";

/** Loudness is measured over frames of 10 ms. */
const FRAME = 0.01;
/** A pause lasts at least 150 ms (shorter dips inside a word or between two are not pauses). */
const MIN_PAUSE = 0.15;
/** Quieter than this share of the loudest frame: silence, or the room's noise. */
const QUIET = 0.08;
const round3 = (s: number) => Math.round(s * 1000) / 1000;
/** An edge snaps to a pause at most this far (seconds). */
const SNAP_REACH = 1;

/**
 * The pauses of a sound (first channel): stretches of at least 150 ms whose loudness (RMS over
 * 10 ms) stays under 8 % of the loudest frame's, in seconds, in order.
 */
export function findPauses(samples: Float32Array, rate: number): Span[] {
  const size = Math.max(1, Math.round(rate * FRAME));
  const frames = Math.floor(samples.length / size);
  const rms = new Float32Array(frames);
  let loudest = 0;
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let i = f * size; i < (f + 1) * size; i++) sum += (samples[i] as number) ** 2;
    rms[f] = Math.sqrt(sum / size);
    if ((rms[f] as number) > loudest) loudest = rms[f] as number;
  }
  const pauses: Span[] = [];
  const quiet = loudest * QUIET;
  let from = -1;
  for (let f = 0; f <= frames; f++) {
    const still = f < frames && (rms[f] as number) <= quiet;
    if (still && from < 0) from = f;
    if (!still && from >= 0) {
      const seconds = (frame: number) => round3((frame * size) / rate);
      if (seconds(f) - seconds(from) >= MIN_PAUSE) pauses.push({ start: seconds(from), end: seconds(f) });
      from = -1;
    }
  }
  return pauses;
}

/**
 * A line's edges snapped to the nearest pauses within reach: its start to where the pause before
 * the speech ends, its end to where the pause after it starts. Null when no pause is in reach of
 * either edge.
 */
export function snapToPauses(line: Span, pauses: readonly Span[], reach = SNAP_REACH): Span | null {
  const nearest = (at: number, edge: (p: Span) => number) => {
    let best: number | undefined;
    for (const p of pauses) {
      const t = edge(p);
      if (Math.abs(t - at) <= reach && (best === undefined || Math.abs(t - at) < Math.abs(best - at)))
        best = t;
    }
    return best;
  };
  const start = nearest(line.start, (p) => p.end);
  const end = nearest(line.end, (p) => p.start);
  if (start === undefined && end === undefined) return null;
  const snapped = { start: start ?? line.start, end: end ?? line.end };
  return snapped.end > snapped.start ? snapped : null;
}
