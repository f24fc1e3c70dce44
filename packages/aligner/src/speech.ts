/**
 * Where someone speaks: a speech presence in [0, 1] per 10 ms frame, and the pauses between.
 *
 * Presence is energy above the background in the speech bands, the background being tracked per
 * band as the lowest 100 ms average within ±2.5 s (minimum statistics). A steady background (hum,
 * noise, a held chord, a music bed) is thus subtracted band by band wherever it is, while a
 * voice, which leaves a band within a few syllables, stands above it.
 */
import { BANDS, bandOf, type Features, LOG_FLOOR } from "./features.js";

export interface Pause {
  /** first frame without speech */
  start: number;
  /** first frame with speech again */
  end: number;
  /** how surely this is a pause between two utterances, 0–1 */
  strength: number;
}

export interface SpeechAnalysis {
  /** per frame, 0–1 */
  presence: Float32Array;
  /** pauses in time order, not overlapping */
  pauses: Pause[];
  /** per frame, the speech bands' excess over the background (natural-log units, smoothed) */
  envelope: Float32Array;
  /**
   * per frame, 0–1: how much it and the 150 ms around it are held notes (features.ts steadiness):
   * 1 in a jingle or a music bed alone, 0 where a voice speaks, over music or not
   */
  music: Float32Array;
}

const BLOCK = 10; // frames averaged for the floor (100 ms)
const FLOOR_REACH = 25; // blocks each side (±2.5 s)
const MARGIN = 1; // natural-log units above the floor before a band counts (4.3 dB)
/**
 * The frame's excess is that of the band at this rank (from the quietest): a voice raises most
 * of the speech bands at once, while a note, a chord or a hum raises a few, whatever its level.
 */
const BAND_RANK = 0.55;
/** log band energy under which a frame is digital silence (about -85 dB) */
const SILENT = LOG_FLOOR + 3;
/** steadiness (features.ts) of a voice, even over a music bed, stays below the first; music's above the second */
const STEADY_SPEECH = 0.3;
const STEADY_MUSIC = 0.45;
/** frames each side over which steadiness is averaged into SpeechAnalysis.music */
const MUSIC_HALF = 15;

function movingAverage(values: Float32Array, half: number): Float32Array {
  const out = new Float32Array(values.length);
  let sum = 0;
  let count = 0;
  let lo = 0;
  let hi = -1;
  for (let t = 0; t < values.length; t++) {
    const wantHi = Math.min(values.length - 1, t + half);
    const wantLo = Math.max(0, t - half);
    while (hi < wantHi) {
      hi++;
      sum += values[hi] as number;
      count++;
    }
    while (lo < wantLo) {
      sum -= values[lo] as number;
      lo++;
      count--;
    }
    out[t] = sum / count;
  }
  return out;
}

function percentile(values: ArrayLike<number>, q: number): number {
  const sorted = Float32Array.from(values).sort();
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

/** Per band, the background level at each block. */
function backgroundFloor(
  features: Features,
  lo: number,
  hi: number,
): { floor: Float32Array; blocks: number } {
  const { frames, logMel } = features;
  const blocks = Math.max(1, Math.ceil(frames / BLOCK));
  const width = hi - lo + 1;
  const means = new Float32Array(blocks * width);
  // the digital silence before the first sound and after the last (an encoder's padding, a cut)
  // says nothing of the background: a noisy recording would otherwise look like speech near it
  const live = (t: number) => {
    for (let b = 0; b < width; b++) if ((logMel[t * BANDS + lo + b] as number) > SILENT) return true;
    return false;
  };
  let first = 0;
  while (first < frames - 1 && !live(first)) first++;
  let last = frames - 1;
  while (last > first && !live(last)) last--;
  for (let k = 0; k < blocks; k++) {
    const from = k * BLOCK;
    const to = Math.min(frames, from + BLOCK);
    for (let b = 0; b < width; b++) {
      let s = 0;
      let counted = 0;
      for (let t = Math.max(from, first); t < Math.min(to, last + 1); t++) {
        s += logMel[t * BANDS + lo + b] as number;
        counted++;
      }
      means[k * width + b] = counted >= 3 ? s / counted : Number.POSITIVE_INFINITY;
    }
  }
  const floor = new Float32Array(blocks * width);
  for (let b = 0; b < width; b++) {
    // sliding minimum over ±FLOOR_REACH blocks (monotonic deque)
    const deque: number[] = [];
    let head = 0;
    let next = 0;
    for (let k = 0; k < blocks; k++) {
      const until = Math.min(blocks - 1, k + FLOOR_REACH);
      for (; next <= until; next++) {
        const v = means[next * width + b] as number;
        while (deque.length > head && (means[(deque[deque.length - 1] as number) * width + b] as number) >= v)
          deque.pop();
        deque.push(next);
      }
      while ((deque[head] as number) < k - FLOOR_REACH) head++;
      const lowest = means[(deque[head] as number) * width + b] as number;
      floor[k * width + b] = lowest === Number.POSITIVE_INFINITY ? SILENT : lowest;
    }
  }
  return { floor, blocks };
}

export function analyseSpeech(features: Features): SpeechAnalysis {
  const { frames, logMel } = features;
  const lo = bandOf(150);
  const hi = bandOf(4500);
  const width = hi - lo + 1;
  const { floor } = backgroundFloor(features, lo, hi);
  const excess = new Float32Array(frames);
  const row = new Float32Array(width);
  const rank = Math.floor(width * BAND_RANK);
  for (let t = 0; t < frames; t++) {
    const k = Math.floor(t / BLOCK);
    for (let b = 0; b < width; b++) {
      row[b] = (logMel[t * BANDS + lo + b] as number) - (floor[k * width + b] as number) - MARGIN;
    }
    row.sort();
    excess[t] = Math.max(0, row[rank] as number);
  }
  // held notes (music) are not speech, however loud: their steadiness over 300 ms mutes them
  const steady = movingAverage(features.steadiness, 15);
  for (let t = 0; t < frames; t++) {
    const music = Math.min(
      1,
      Math.max(0, ((steady[t] as number) - STEADY_SPEECH) / (STEADY_MUSIC - STEADY_SPEECH)),
    );
    excess[t] = (excess[t] as number) * (1 - music);
  }
  const smooth = movingAverage(excess, 1);
  // between what the quietest tenth of the recording (pauses, at least some) and a loud
  // syllable stand above the background: at 45 % of the way, a frame counts as fully speech
  const quiet = percentile(smooth, 0.1);
  const loud = Math.max(quiet + 0.5, percentile(smooth, 0.8));
  const level = new Float32Array(frames);
  const presence = new Float32Array(frames);
  for (let t = 0; t < frames; t++) {
    level[t] = Math.max(0, ((smooth[t] as number) - quiet) / (0.45 * (loud - quiet)));
    presence[t] = Math.min(1, level[t] as number);
  }
  muteBeats(level, presence, features.steadiness);
  const music = movingAverage(features.steadiness, MUSIC_HALF);
  for (let t = 0; t < frames; t++)
    music[t] = Math.min(
      1,
      Math.max(0, ((music[t] as number) - STEADY_SPEECH) / (STEADY_MUSIC - STEADY_SPEECH)),
    );
  return { presence, pauses: findPauses(level), envelope: smooth, music };
}

/** a burst of sound at most this long (frames) amid music is a beat, not a word */
const BEAT_FRAMES = 20;
/** music around it: this share of the frames within ±MUSIC_REACH have held notes (steadiness) */
const MUSIC_SHARE = 0.35;
const MUSIC_REACH = 50;

/**
 * Drum hits and plucked notes in a jingle: short bursts (a word lasts longer than 200 ms, a hit
 * 50–100 ms) in a stretch where held notes fill much of the time. A voice over the same music
 * makes its notes unsteady, so its words keep their presence.
 */
function muteBeats(level: Float32Array, presence: Float32Array, steadiness: Float32Array) {
  const frames = level.length;
  const held = new Int32Array(frames + 1);
  for (let t = 0; t < frames; t++)
    held[t + 1] = (held[t] as number) + ((steadiness[t] as number) > STEADY_MUSIC ? 1 : 0);
  let t = 0;
  while (t < frames) {
    if ((level[t] as number) < QUIET) {
      t++;
      continue;
    }
    const from = t;
    while (t < frames && (level[t] as number) >= QUIET) t++;
    if (t - from > BEAT_FRAMES) continue;
    const lo = Math.max(0, from - MUSIC_REACH);
    const hi = Math.min(frames, t + MUSIC_REACH);
    if (((held[hi] as number) - (held[lo] as number)) / (hi - lo) < MUSIC_SHARE) continue;
    level.fill(0, from, t);
    presence.fill(0, from, t);
  }
}

const QUIET = 0.2;
/**
 * How surely a quiet run is a pause between two utterances: 1 - e^(-seconds / 0.3), so 0.15 at
 * 50 ms, 0.5 at 200 ms, 0.8 at 500 ms. Even a short run of quiet frames says more than a dip
 * (at most 0.2, below), which is how a line junction read without a pause looks.
 */
const pauseStrength = (seconds: number) => 1 - Math.exp(-seconds / 0.3);

/**
 * Runs of quiet frames, and dips between two louder stretches (a word gap said fast), found on
 * the level before it is clipped to a presence (a dip from 3 to 1 is a dip, both are "speech").
 */
function findPauses(presence: Float32Array): Pause[] {
  const frames = presence.length;
  const pauses: Pause[] = [];
  let t = 0;
  while (t < frames) {
    if ((presence[t] as number) < QUIET) {
      const start = t;
      while (t < frames && (presence[t] as number) < QUIET) t++;
      const seconds = (t - start) / 100;
      if (t - start >= 2 || start === 0 || t === frames) {
        pauses.push({ start, end: t, strength: pauseStrength(seconds) });
      }
      continue;
    }
    t++;
  }
  // dips that never reach QUIET: local minima well below both neighbouring peaks
  const reach = 15;
  const dips: Pause[] = [];
  for (let i = 1; i < frames - 1; i++) {
    const v = presence[i] as number;
    if (v < QUIET) continue;
    if (!(v <= (presence[i - 1] as number) && v < (presence[i + 1] as number))) continue;
    let left = 0;
    let right = 0;
    let isMin = true;
    for (let j = Math.max(0, i - reach); j < i; j++) {
      const w = presence[j] as number;
      left = Math.max(left, w);
      if (w < v) isMin = false;
    }
    for (let j = i + 1; j <= Math.min(frames - 1, i + reach); j++) {
      const w = presence[j] as number;
      right = Math.max(right, w);
      if (w < v) isMin = false;
    }
    const depth = 1 - v / Math.min(left, right);
    if (isMin && depth > 0.35) dips.push({ start: i, end: i + 1, strength: 0.2 * depth });
  }
  return [...pauses, ...dips].sort((a, b) => a.start - b.start);
}

/**
 * Syllable nuclei: peaks of the envelope, each the highest within ±50 ms, in speech (presence at
 * least 0.5), standing above the lowest point on either side before a higher peak by a twentieth
 * of the envelope's range. Frames of speech per nucleus is the recording's syllable time, which
 * the assignment takes as a prior on the speaking rate.
 */
export function syllableTime(speech: SpeechAnalysis): number | null {
  const { envelope, presence } = speech;
  const n = envelope.length;
  const sorted = Float32Array.from(envelope).sort();
  const range = (sorted[Math.floor(0.9 * n)] ?? 0) - (sorted[Math.floor(0.1 * n)] ?? 0);
  let peaks = 0;
  let speaking = 0;
  for (let t = 0; t < n; t++) {
    if ((presence[t] as number) < 0.5) continue;
    speaking++;
    const v = envelope[t] as number;
    let highest = true;
    for (let j = Math.max(0, t - NUCLEUS_REACH); j <= Math.min(n - 1, t + NUCLEUS_REACH) && highest; j++) {
      const w = envelope[j] as number;
      if (w > v || (w === v && j < t)) highest = false;
    }
    if (!highest) continue;
    let left = v;
    for (let j = t - 1; j >= Math.max(0, t - 30) && (envelope[j] as number) <= v; j--)
      left = Math.min(left, envelope[j] as number);
    let right = v;
    for (let j = t + 1; j <= Math.min(n - 1, t + 30) && (envelope[j] as number) <= v; j++)
      right = Math.min(right, envelope[j] as number);
    if (v - Math.max(left, right) >= 0.05 * range) peaks++;
  }
  return peaks >= 10 ? speaking / peaks : null;
}
const NUCLEUS_REACH = 5;
