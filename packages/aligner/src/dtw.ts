/**
 * Banded dynamic time warping of the whole reference reading (every line, its breaks left out)
 * against the whole recording, on mean-normalised MFCCs in 20 ms steps: where each of the
 * reference's line junctions lands in the recording. This is how echogarden's DTW aligner uses a
 * synthesized reading; the band (±5 s around where a first assignment put each line) keeps the
 * work linear in the lesson's length, and an open beginning and end let an intro or an outro go
 * unmatched. Unlike a window around each junction, one path through the whole recording cannot
 * drift by a line where the first assignment did.
 */
import { CEPSTRA, type Features } from "./features.js";
import type { Segment } from "./segment.js";

/** DTW runs on pairs of frames (20 ms): a quarter of the work, and hints need no finer step */
const STEP = 2;
/** steps each side of the expected position that the path may use (5 s) */
const BAND = 250;

/**
 * MFCC rows [from, to), averaged by STEP, with their mean removed (a voice's and a room's colour
 * cancel out).
 */
function normalisedMfcc(features: Features, from: number, to: number): Float32Array {
  const n = Math.max(0, Math.floor((to - from) / STEP));
  const out = new Float32Array(n * CEPSTRA);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < CEPSTRA; c++) {
      let v = 0;
      for (let k = 0; k < STEP; k++) v += features.mfcc[(from + i * STEP + k) * CEPSTRA + c] as number;
      out[i * CEPSTRA + c] = v / STEP;
    }
  }
  for (let c = 0; c < CEPSTRA; c++) {
    let mean = 0;
    for (let i = 0; i < n; i++) mean += out[i * CEPSTRA + c] as number;
    mean /= Math.max(1, n);
    for (let i = 0; i < n; i++) out[i * CEPSTRA + c] = (out[i * CEPSTRA + c] as number) - mean;
  }
  return out;
}

/**
 * Per junction between line i and i+1, the recording frame where the reference's junction lands
 * (the middle of the recording's stretch between the end of line i and the start of line i+1 on
 * the path), or null where the path does not reach it.
 */
export function globalHints(
  recording: Features,
  reference: Features,
  ranges: [number, number][],
  segments: Segment[],
): (number | null)[] {
  // the reference's lines end to end, and where each begins (in steps)
  const parts = ranges.map(([a, b]) => normalisedMfcc(reference, a, b));
  const lineStart: number[] = [];
  let n = 0;
  for (const p of parts) {
    lineStart.push(n);
    n += p.length / CEPSTRA;
  }
  const ref = new Float32Array(n * CEPSTRA);
  parts.forEach((p, i) => {
    ref.set(p, (lineStart[i] as number) * CEPSTRA);
  });
  const rec = normalisedMfcc(recording, 0, recording.frames);
  const m = rec.length / CEPSTRA;
  if (n === 0 || m === 0) return segments.slice(1).map(() => null);
  // expected recording step of each reference step: each line stretched over its first placement
  const centre = new Int32Array(n);
  parts.forEach((p, i) => {
    const len = p.length / CEPSTRA;
    const s = segments[i] as Segment;
    for (let k = 0; k < len; k++)
      centre[(lineStart[i] as number) + k] = Math.round((s.start + ((s.end - s.start) * k) / len) / STEP);
  });
  const width = 2 * BAND + 1;
  const lo = (i: number) => (centre[i] as number) - BAND;
  const move = new Uint8Array(n * width); // 0 diagonal, 1 from the row before, 2 from the column before, 3 start
  let prev = new Float32Array(width).fill(Number.POSITIVE_INFINITY);
  let row = new Float32Array(width);
  const distance = (i: number, j: number) => {
    let d = 0;
    for (let c = 0; c < CEPSTRA; c++) {
      const x = (ref[i * CEPSTRA + c] as number) - (rec[j * CEPSTRA + c] as number);
      d += x * x;
    }
    return Math.sqrt(d);
  };
  for (let i = 0; i < n; i++) {
    row.fill(Number.POSITIVE_INFINITY);
    const base = lo(i);
    const prevBase = i > 0 ? lo(i - 1) : 0;
    for (let k = 0; k < width; k++) {
      const j = base + k;
      if (j < 0 || j >= m) continue;
      const d = distance(i, j);
      let best = Number.POSITIVE_INFINITY;
      let mv = 3;
      if (i === 0)
        best = 0; // open beginning: the path may start at any column
      else {
        const kd = j - 1 - prevBase;
        const ku = j - prevBase;
        const diag = kd >= 0 && kd < width ? (prev[kd] as number) : Number.POSITIVE_INFINITY;
        const up = ku >= 0 && ku < width ? (prev[ku] as number) : Number.POSITIVE_INFINITY;
        if (diag <= up) {
          best = diag;
          mv = 0;
        } else {
          best = up;
          mv = 1;
        }
      }
      const left = k > 0 ? (row[k - 1] as number) : Number.POSITIVE_INFINITY;
      if (left < best) {
        best = left;
        mv = 2;
      }
      row[k] = best + d;
      move[i * width + k] = mv;
    }
    [prev, row] = [row, prev];
  }
  // open end: the best column of the last row
  let k = -1;
  for (let q = 0; q < width; q++) if (k < 0 || (prev[q] as number) < (prev[k] as number)) k = q;
  if (k < 0 || prev[k] === Number.POSITIVE_INFINITY) return segments.slice(1).map(() => null);
  // walk back, noting per reference step the first and last recording step matched to it
  const firstCol = new Int32Array(n).fill(-1);
  const lastCol = new Int32Array(n).fill(-1);
  let i = n - 1;
  let j = lo(i) + k;
  for (;;) {
    if ((lastCol[i] as number) < 0) lastCol[i] = j;
    firstCol[i] = j;
    const mv = move[i * width + (j - lo(i))];
    if (mv === 3) break;
    if (mv === 0) {
      i--;
      j--;
    } else if (mv === 1) i--;
    else j--;
    if (i < 0 || j < 0) break;
  }
  return segments.slice(1).map((_, junction) => {
    const next = lineStart[junction + 1] as number;
    const end = lastCol[next - 1] as number;
    const start = firstCol[next] as number;
    if (end < 0 || start < 0) return null;
    return Math.round(((end + 1 + start) / 2) * STEP);
  });
}
