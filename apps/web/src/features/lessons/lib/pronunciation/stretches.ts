/**
 * The model line cut into stretches (what is said between two pauses, long ones cut again at
 * their quietest point), so that rhythm can be shown and judged piece by piece.
 */

/** A pause is 150 ms without voice or more. */
const PAUSE = 15;
/** A stretch longer than 1.2 s is cut in two at its quietest frame (in its middle half). */
const LONGEST = 120;
/** A stretch shorter than 120 ms joins the one before it. */
const SHORTEST = 12;

export type Stretch = [from: number, to: number];

function split([from, to]: Stretch, energies: Float64Array): Stretch[] {
  if (to - from <= LONGEST) return [[from, to]];
  const quarter = Math.floor((to - from) / 4);
  let cut = from + quarter;
  for (let f = from + quarter; f < to - quarter; f++)
    if ((energies[f] as number) < (energies[cut] as number)) cut = f;
  return [...split([from, cut], energies), ...split([cut, to], energies)];
}

/** The stretches of frames [0, voiced.length): runs of voice between pauses, long ones split. */
export function stretchesOf(voiced: Uint8Array, energies: Float64Array): Stretch[] {
  const runs: Stretch[] = [];
  let start = -1;
  let silent = 0;
  for (let f = 0; f <= voiced.length; f++) {
    if (f < voiced.length && voiced[f]) {
      if (start < 0) start = f;
      silent = 0;
      continue;
    }
    silent++;
    if (start >= 0 && (silent >= PAUSE || f === voiced.length)) {
      runs.push([start, f - silent + 1]);
      start = -1;
    }
  }
  const merged: Stretch[] = [];
  for (const run of runs) {
    const last = merged[merged.length - 1];
    if (last && (run[1] - run[0] < SHORTEST || last[1] - last[0] < SHORTEST)) last[1] = run[1];
    else merged.push([run[0], run[1]]);
  }
  if (merged.length === 0) merged.push([0, voiced.length]);
  return merged.flatMap((s) => split(s, energies));
}

/** Where a stretch of the first sequence falls in the second, following an alignment path. */
export function mapStretch([from, to]: Stretch, path: readonly [number, number][]): Stretch {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const [i, j] of path) {
    if (i === from && j < start) start = j;
    if (i === to - 1 && j > end) end = j;
  }
  return [start, Math.max(start + 1, end + 1)];
}
