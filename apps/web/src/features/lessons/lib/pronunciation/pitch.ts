// the detector alone: pitchfinder's index is CommonJS and would bring its other four detectors
import { YIN } from "pitchfinder/lib/detectors/yin";
import { HOP } from "./signal";

/**
 * The voice's pitch, frame by frame: pitchfinder's YIN (de Cheveigné & Kawahara 2002) on the
 * sound brought down to 4 kHz (a voice's pitch is below 450 Hz; YIN's work grows with the square
 * of its window, and pitchfinder's was the analysis's largest cost), 32 ms windows every 30 ms
 * (every third frame: a contour needs no more).
 */

const PITCH_RATE = 4000;
const DOWN = 4;
/** 129 samples: pitchfinder's YIN uses the largest power of two below the length (128), lags up to 64 (62.5 Hz). */
const WINDOW = 129;
/** Low-pass at 1 kHz before keeping one sample in four (windowed sinc, 33 taps, Hamming): no harmonic folds back. */
const TAPS = (() => {
  const n = 33;
  const cutoff = 1000 / 16_000;
  const taps = Float64Array.from({ length: n }, (_, k) => {
    const x = k - (n - 1) / 2;
    const sinc = x === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * x) / (Math.PI * x);
    return sinc * (0.54 - 0.46 * Math.cos((2 * Math.PI * k) / (n - 1)));
  });
  const sum = taps.reduce((s, v) => s + v, 0);
  return taps.map((v) => v / sum);
})();
const LOWEST = 65;
const HIGHEST = 450;

/**
 * The pitch in Hz of each frame [from, to) where `voiced` says there is voice (null elsewhere or
 * when YIN finds no period), median-filtered over five frames against octave jumps.
 */
export function pitchTrack(
  samples: Float32Array,
  voiced: Uint8Array,
  from: number,
  to: number,
): (number | null)[] {
  const low = new Float32Array(Math.floor(samples.length / DOWN));
  const half = (TAPS.length - 1) / 2;
  for (let i = 0; i < low.length; i++) {
    let sum = 0;
    const at = DOWN * i - half;
    for (let k = 0; k < TAPS.length; k++) sum += (TAPS[k] as number) * (samples[at + k] ?? 0);
    low[i] = sum;
  }
  const detect = YIN({ sampleRate: PITCH_RATE, threshold: 0.2, probabilityThreshold: 0.1 });
  const raw: (number | null)[] = [];
  const window = new Float32Array(WINDOW);
  for (let f = from; f < to; f++) {
    if (!voiced[f]) {
      raw.push(null);
      continue;
    }
    if ((f - from) % 3 !== 0) {
      // filled from its neighbours below
      raw.push(Number.NaN);
      continue;
    }
    // frames are centred like the 25 ms spectral frames
    const start = Math.round((f * HOP + 200) / DOWN - WINDOW / 2);
    for (let i = 0; i < WINDOW; i++) window[i] = low[start + i] ?? 0;
    const found = detect(window);
    raw.push(found !== null && found >= LOWEST && found <= HIGHEST ? found : null);
  }
  for (let i = 0; i < raw.length; i++) {
    if (!Number.isNaN(raw[i])) continue;
    const at = i - (i % 3);
    const before = raw[at] ?? null;
    const after = raw[at + 3] ?? null;
    const weight = (i - at) / 3;
    raw[i] = before !== null && after !== null ? before * (1 - weight) + after * weight : (before ?? after);
  }
  return raw.map((value, i) => {
    if (value === null) return null;
    const near = raw.slice(Math.max(0, i - 2), i + 3).filter((v): v is number => v !== null);
    near.sort((a, b) => a - b);
    return near[Math.floor(near.length / 2)] ?? value;
  });
}

/** Semitones above or below the speaker's median pitch (a man and a woman saying it alike score alike). */
export function semitones(pitch: readonly (number | null)[]): (number | null)[] {
  const known = pitch.filter((v): v is number => v !== null).sort((a, b) => a - b);
  const median = known[Math.floor(known.length / 2)];
  if (median === undefined) return pitch.map(() => null);
  return pitch.map((v) => (v === null ? null : 12 * Math.log2(v / median)));
}
