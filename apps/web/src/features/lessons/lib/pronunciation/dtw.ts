/**
 * Dynamic time warping: the cheapest way to walk two sequences of frames together, each step
 * moving one of them or both, so that a slower or faster speaker is matched sound for sound.
 * Symmetric steps (a diagonal step costs twice the distance), inside a band around the straight
 * line from start to start and end to end (30 % of the longer one each side) that keeps the
 * alignment from folding a whole sentence onto one frame.
 */

/** Euclidean distance between row i of `a` and row j of `b` (rows of `width` numbers). */
export function frameDistance(a: Float32Array, i: number, b: Float32Array, j: number, width: number): number {
  let sum = 0;
  for (let c = 0; c < width; c++) {
    const d = (a[i * width + c] as number) - (b[j * width + c] as number);
    sum += d * d;
  }
  return Math.sqrt(sum);
}

export interface Alignment {
  /** pairs [i of a, j of b], from the first frames to the last */
  path: [number, number][];
  /** total cost over (n + m): the mean distance of aligned frames */
  distance: number;
}

export function dtw(a: Float32Array, b: Float32Array, width: number): Alignment {
  const n = a.length / width;
  const m = b.length / width;
  if (n === 0 || m === 0) return { path: [], distance: Number.POSITIVE_INFINITY };
  const radius = Math.ceil(0.3 * Math.max(n, m)) + 2;
  const cost = new Float64Array(n * m).fill(Number.POSITIVE_INFINITY);
  // 0 diagonal, 1 from (i - 1, j), 2 from (i, j - 1)
  const from = new Uint8Array(n * m);
  const slope = n > 1 ? (m - 1) / (n - 1) : 0;
  for (let i = 0; i < n; i++) {
    const centre = Math.round(i * slope);
    const lo = Math.max(0, centre - radius);
    const hi = Math.min(m - 1, centre + radius);
    for (let j = lo; j <= hi; j++) {
      const d = frameDistance(a, i, b, j, width);
      if (i === 0 && j === 0) {
        cost[0] = 2 * d;
        continue;
      }
      let best = Number.POSITIVE_INFINITY;
      let step = 0;
      if (i > 0 && j > 0) best = (cost[(i - 1) * m + j - 1] as number) + 2 * d;
      if (i > 0) {
        const up = (cost[(i - 1) * m + j] as number) + d;
        if (up < best) {
          best = up;
          step = 1;
        }
      }
      if (j > 0) {
        const left = (cost[i * m + j - 1] as number) + d;
        if (left < best) {
          best = left;
          step = 2;
        }
      }
      cost[i * m + j] = best;
      from[i * m + j] = step;
    }
  }
  const path: [number, number][] = [];
  let i = n - 1;
  let j = m - 1;
  for (;;) {
    path.push([i, j]);
    if (i === 0 && j === 0) break;
    const step = i === 0 ? 2 : j === 0 ? 1 : from[i * m + j];
    if (step === 0) {
      i--;
      j--;
    } else if (step === 1) i--;
    else j--;
  }
  path.reverse();
  return { path, distance: (cost[n * m - 1] as number) / (n + m) };
}
