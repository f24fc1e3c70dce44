/**
 * The assignment of the script's lines to the recording, by dynamic programming over the pauses.
 *
 * Every cue starts where a pause ends and ends where a later pause starts. A choice costs:
 *  - its length against the line's expected weight times a speaking rate (squared log ratio:
 *    twice too long costs as much as half as long). The length is its speech time (synthesis
 *    mode, whose weights are the reference voice's speech times) or its time from start to end
 *    (signal mode, whose weights count the punctuation's pauses: script.ts expectedWeight);
 *  - in signal mode, the rate itself: the assignment is solved for rates from a third to four
 *    times the speech presence's estimate, and the one that explains the recording best, with a
 *    prior from the syllable nuclei (speech.ts syllableTime), is kept, then refitted;
 *  - the weakness of the pauses it starts and ends at (a long silence is a better boundary than
 *    a dip between two words);
 *  - speech left outside every cue (an intro, a jingle or an aside that is not in the script may
 *    be skipped, at a price per second of speech presence, 2.5 times higher after the last line
 *    and three times between lines);
 *  - music in the second after its start or before its end (an intro or outro jingle's burst);
 *  - clear pauses inside a cue beyond its punctuation's (at most two counted), or missing;
 *  - with hints (synthesis mode), the distance of each boundary from where the reference voice's
 *    line junction was mapped.
 * The best choice over all lines is found exactly in O(lines × pauses × candidates), once per
 * rate tried.
 */
import type { Pause } from "./speech.js";

export interface SegmentInput {
  presence: Float32Array;
  pauses: Pause[];
  /** expected speech time of each line, any unit (the rate is fitted) */
  weights: number[];
  /** per line, the pauses expected inside it (its commas, or the reference voice's pauses) */
  innerPauses?: number[];
  /** per junction between line i and i+1 (length lines-1), a frame where it probably lies */
  hints?: (number | null)[];
  /** the speaking rate (speech frames per unit of weight) when known: then one pass, not a fit */
  rate?: number;
  /** a prior on the rate ("time" mode): from the recording's syllable nuclei (speech.ts) */
  ratePrior?: number;
  /**
   * What a cue's length is compared with its weight by: "speech", the speech presence inside it
   * (the reference voice's speech time, in synthesis mode), or "time", from its start to its end
   * (signal mode, whose weights count the pauses of the punctuation).
   */
  measure?: "speech" | "time";
  /**
   * per frame, 0–1, music around it (speech.ts SpeechAnalysis.music): a cue whose first or last
   * second is music (a jingle's burst taken for a word, an outro) pays for it
   */
  music?: Float32Array;
}

export interface Segment {
  start: number;
  end: number;
  /** speech frames (sum of presence) inside */
  speech: number;
  /** log ratio of the speech time to the expected one */
  durationError: number;
  startStrength: number;
  endStrength: number;
}

/**
 * 1 / (2σ²) for the squared log ratio of a cue's length to its expected one: σ ≈ 0.16, the spread
 * of lines' durations around the expected weight (script.ts) on the benchmark corpus, widened a
 * little for real voices. Synthesis mode, whose reference voice gives the expected times, uses the
 * same weight.
 */
const DURATION_WEIGHT = 20;
const BOUNDARY_WEIGHT = 1;
/**
 * A cue whose first second (from its start) or last second (to its end) is all music costs this
 * much: twice a boundary at a mere dip. One second looked at, on one side only: a line read after
 * a chord bed's lead has a voice in its first second, a jingle's burst taken for a line's start
 * has more jingle after it.
 */
const MUSIC_EDGE = 2;
const MUSIC_REACH = 100;
const SKIP_PER_SECOND = 1.5;
/** the rates tried in "time" mode: 2^(k/4) times the presence's estimate, k from -6 to 8 */
const GRID_BELOW = 6;
const GRID_ABOVE = 8;
const GRID_STEPS = 4;
/**
 * Speech skipped between two lines (an aside, an interlude) costs this many times more than
 * before the first or after the last (an intro or a jingle, common), so that a noisy recording,
 * whose speech presence is low, is not explained by fast lines and long skips.
 */
const INNER_SKIP = 3;
/** and after the last line 2.5 times: unscripted material comes first (a jingle, a title) more often than last */
const END_SKIP = 2.5;
/** 1 / (2σ²) for the log ratio of a tried rate to the nuclei's: σ = 0.25, their spread on the corpus */
const RATE_PRIOR_WEIGHT = 8;
/** per second of silence inside a cue: of two equally good cues, the tighter */
const LOOSE_PER_SECOND = 0.3;
const HINT_WEIGHT = 1;
const HINT_SCALE = 30; // frames (0.3 s) at which a hint's cost is 1
/** a pause at least this long (frames) is counted as one inside a cue */
const CLEAR_PAUSE = 7;
const EXTRA_PAUSE = 0.8;
/** extra pauses counted at most: slow or noisy speech has word gaps as long as its commas */
const EXTRA_PAUSES_COUNTED = 2;
const MISSING_PAUSE = 0.5;
/** speech time added to both sides of the ratio, so that a one-word line is not judged to the frame */
const SLACK = 25; // frames

export function segmentLines(input: SegmentInput, iterations = 3): Segment[] {
  const { presence, weights } = input;
  const frames = presence.length;
  const mass = new Float64Array(frames + 1);
  for (let t = 0; t < frames; t++) mass[t + 1] = (mass[t] as number) + (presence[t] as number);
  // virtual pauses at both ends of the recording
  // the recording's edges are perfect boundaries: silence there counts as a full pause
  const inner = input.pauses.map((p) => (p.start === 0 || p.end >= frames ? { ...p, strength: 1 } : p));
  const pauses: Pause[] = [
    ...(inner[0]?.start === 0 ? [] : [{ start: 0, end: 0, strength: 1 }]),
    ...inner,
    ...(inner.at(-1)?.end === frames ? [] : [{ start: frames, end: frames, strength: 1 }]),
  ];
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const byTime = input.measure === "time";
  const massRate = (mass[frames] as number) / Math.max(1e-9, totalWeight);
  if (input.rate)
    return solve(pauses, input.music, mass, weights, input.rate, input.hints, input.innerPauses, byTime)
      .segments;
  let best = { segments: [] as Segment[], cost: Number.POSITIVE_INFINITY };
  let rate = massRate;
  if (byTime) {
    // the speaking rate that explains the recording best: a grid from a third to four times the
    // presence's estimate (which noise lowers and music raises), each solved exactly
    const tryRate = (r: number) => {
      const tried = solve(pauses, input.music, mass, weights, r, input.hints, input.innerPauses, byTime);
      if (input.ratePrior) tried.cost += RATE_PRIOR_WEIGHT * Math.log(r / input.ratePrior) ** 2;
      if (tried.cost < best.cost) {
        best = tried;
        rate = r;
      }
    };
    // every other step of the grid, then the two steps beside the best
    for (let k = -GRID_BELOW; k <= GRID_ABOVE; k += 2) tryRate(massRate * 2 ** (k / GRID_STEPS));
    const coarse = rate;
    for (const k of [-1, 1]) tryRate(coarse * 2 ** (k / GRID_STEPS));
  }
  for (let it = 0; it < iterations; it++) {
    if (it > 0 || byTime) {
      const spoken = best.segments.reduce((a, s) => a + (byTime ? s.end - s.start : s.speech), 0);
      const next = spoken / Math.max(1e-9, totalWeight);
      if (Math.abs(next - rate) / rate < 0.01) break;
      rate = next;
    }
    const tried = solve(pauses, input.music, mass, weights, rate, input.hints, input.innerPauses, byTime);
    if (byTime && input.ratePrior) tried.cost += RATE_PRIOR_WEIGHT * Math.log(rate / input.ratePrior) ** 2;
    if (byTime && tried.cost >= best.cost) break;
    best = tried;
  }
  return best.segments;
}

function solve(
  pauses: Pause[],
  music: Float32Array | undefined,
  mass: Float64Array,
  weights: number[],
  rate: number,
  hints?: (number | null)[],
  innerPauses?: number[],
  byTime = false,
): { segments: Segment[]; cost: number } {
  const n = weights.length;
  const m = pauses.length;
  const frames = mass.length - 1;
  const massAt = (f: number) => mass[Math.max(0, Math.min(frames, f))] as number;
  const starts = Int32Array.from(pauses, (p) => p.end);
  const ends = Int32Array.from(pauses, (p) => p.start);
  const weakness = Float64Array.from(pauses, (p) => BOUNDARY_WEIGHT * (1 - p.strength));
  // music in the second after a cue's start, and in the second before its end
  const musicMass = new Float64Array(music ? frames + 1 : 0);
  if (music) for (let t = 0; t < frames; t++) musicMass[t + 1] = (musicMass[t] as number) + (music[t] ?? 0);
  const musicIn = (from: number, to: number) => {
    const lo = Math.max(0, Math.min(frames, from));
    const hi = Math.max(lo, Math.min(frames, to));
    return music && hi > lo ? ((musicMass[hi] as number) - (musicMass[lo] as number)) / (hi - lo) : 0;
  };
  const startMusic = Float64Array.from(pauses, (p) => MUSIC_EDGE * musicIn(p.end, p.end + MUSIC_REACH));
  const endMusic = Float64Array.from(pauses, (p) => MUSIC_EDGE * musicIn(p.start - MUSIC_REACH, p.start));
  // clear[k]: clear pauses among pauses 0..k-1, so that those strictly inside (a, b) are
  // clear[b] - clear[a + 1]
  const clear = new Int32Array(m + 1);
  for (let k = 0; k < m; k++) {
    const p = pauses[k] as Pause;
    clear[k + 1] = (clear[k] as number) + (p.end - p.start >= CLEAR_PAUSE ? 1 : 0);
  }
  /** a cue with more clear pauses inside than its text has, or fewer, is likely cut wrong */
  const innerCost = (line: number, a: number, b: number) => {
    if (!innerPauses) return 0;
    const found = (clear[b] as number) - (clear[a + 1] as number);
    const d = found - (innerPauses[line] as number);
    return d > 0 ? EXTRA_PAUSE * Math.min(d, EXTRA_PAUSES_COUNTED) : -MISSING_PAUSE * d;
  };
  const skipCost = (from: number, to: number) => ((massAt(to) - massAt(from)) / 100) * SKIP_PER_SECOND;
  /** distance of a junction's hint from the pause [from, to] chosen for it */
  const hintCost = (junction: number, from: number, to: number) => {
    const h = hints?.[junction];
    if (h === null || h === undefined) return 0;
    const d = (h < from ? from - h : h > to ? h - to : 0) / HINT_SCALE;
    return HINT_WEIGHT * Math.min(1, d * d);
  };

  // open[a]: best cost with lines 0..i-1 placed and line i starting at the end of pause a
  let open = new Float64Array(m);
  const endBack: Int32Array[] = []; // per line, per end pause b: the start pause a
  const openBack: Int32Array[] = []; // per line, per start pause a: the pause where line i-1 ended (-1: none)
  // line 0 may start at any pause end; what precedes it is skipped
  {
    const back = new Int32Array(m).fill(-1);
    for (let a = 0; a < m; a++)
      open[a] = skipCost(0, starts[a] as number) + (weakness[a] as number) + (startMusic[a] as number);
    openBack.push(back);
  }
  let closed = new Float64Array(m);
  for (let i = 0; i < n; i++) {
    const expected = (weights[i] as number) * rate;
    const minSpeech = Math.max(3, expected / 4 - SLACK);
    const maxSpeech = expected * 4 + 3 * SLACK + 100;
    const maxTime = (expected + SLACK) * 3.5 - SLACK;
    const minTime = (expected + SLACK) / 3.5 - SLACK;
    closed = new Float64Array(m).fill(Number.POSITIVE_INFINITY);
    const back = new Int32Array(m).fill(-1);
    let aLo = 0;
    for (let b = 1; b < m; b++) {
      const endFrame = ends[b] as number;
      const endMass = massAt(endFrame);
      // candidates a < b whose speech to b lies in [minSpeech, maxSpeech]
      while (aLo < b && endMass - massAt(starts[aLo] as number) > maxSpeech) aLo++;
      // by time, a cue more than 3.5 times too long or too short costs more than any skip saves
      while (byTime && aLo < b && endFrame - (starts[aLo] as number) > maxTime) aLo++;
      let best = Number.POSITIVE_INFINITY;
      let bestA = -1;
      for (let a = aLo; a < b; a++) {
        const base = open[a] as number;
        if (base === Number.POSITIVE_INFINITY) continue;
        const startFrame = starts[a] as number;
        if (startFrame >= endFrame) continue;
        const speech = endMass - massAt(startFrame);
        if (speech < minSpeech || (byTime && endFrame - startFrame < minTime)) break;
        const r = Math.log(((byTime ? endFrame - startFrame : speech) + SLACK) / (expected + SLACK));
        const loose = ((endFrame - startFrame - speech) / 100) * LOOSE_PER_SECOND;
        const cost = base + DURATION_WEIGHT * r * r + loose + innerCost(i, a, b);
        if (cost < best) {
          best = cost;
          bestA = a;
        }
      }
      if (bestA < 0) continue;
      const last = i === n - 1;
      const endCost =
        (last ? END_SKIP * skipCost(endFrame, frames) : 0) +
        (weakness[b] as number) +
        (endMusic[b] as number);
      closed[b] = best + endCost + (last ? 0 : hintCost(i, endFrame, starts[b] as number));
      back[b] = bestA;
    }
    endBack.push(back);
    if (i === n - 1) break;
    // line i+1 starts at the end of the pause where line i ended, or later, skipping speech
    const nextOpen = new Float64Array(m).fill(Number.POSITIVE_INFINITY);
    const nextBack = new Int32Array(m).fill(-1);
    // free: line i has ended at or before pause a and nothing is open yet
    let free = Number.POSITIVE_INFINITY;
    let freeFrom = -1;
    for (let a = 0; a < m; a++) {
      if (a > 0 && freeFrom >= 0) {
        const skipped = INNER_SKIP * skipCost(starts[a - 1] as number, ends[a] as number);
        const viaSkip = free + skipped + (weakness[a] as number) + (startMusic[a] as number);
        if (viaSkip < (nextOpen[a] as number)) {
          nextOpen[a] = viaSkip;
          nextBack[a] = freeFrom;
        }
        free += skipped;
      }
      const joined = (closed[a] as number) + (startMusic[a] as number);
      if (joined < (nextOpen[a] as number)) {
        nextOpen[a] = joined;
        nextBack[a] = a;
      }
      if ((closed[a] as number) < free) {
        free = closed[a] as number;
        freeFrom = a;
      }
    }
    open = nextOpen;
    openBack.push(nextBack);
  }
  // best final end
  let bestB = -1;
  let best = Number.POSITIVE_INFINITY;
  for (let b = 0; b < m; b++) {
    if ((closed[b] as number) < best) {
      best = closed[b] as number;
      bestB = b;
    }
  }
  if (bestB < 0) return { segments: evenSplit(n, frames), cost: Number.POSITIVE_INFINITY };
  const segments: Segment[] = new Array(n);
  let b = bestB;
  for (let i = n - 1; i >= 0; i--) {
    const a = (endBack[i] as Int32Array)[b] as number;
    const startFrame = starts[a] as number;
    const endFrame = ends[b] as number;
    const speech = massAt(endFrame) - massAt(startFrame);
    const expected = (weights[i] as number) * rate;
    segments[i] = {
      start: startFrame,
      end: endFrame,
      speech,
      durationError: Math.log(((byTime ? endFrame - startFrame : speech) + SLACK) / (expected + SLACK)),
      startStrength: (pauses[a] as Pause).strength,
      endStrength: (pauses[b] as Pause).strength,
    };
    if (i > 0) b = (openBack[i] as Int32Array)[a] as number;
  }
  return { segments, cost: best };
}

/** When no assignment fits (more lines than the audio can hold), equal shares of the time. */
function evenSplit(n: number, frames: number): Segment[] {
  return Array.from({ length: n }, (_, i) => ({
    start: Math.floor((i * frames) / n),
    end: Math.floor(((i + 1) * frames) / n),
    speech: 0,
    durationError: 10,
    startStrength: 0,
    endStrength: 0,
  }));
}
