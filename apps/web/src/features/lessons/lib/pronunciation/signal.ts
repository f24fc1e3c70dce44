/**
 * The sound before any feature: one rate, one level, and where the voice is.
 * Pure functions over samples (no Web Audio), so they run in a worker, in Node and in tests.
 */

/** The rate every analysis runs at: speech below 8 kHz is all the spectrum and pitch need. */
export const RATE = 16_000;
/** One analysis frame every 10 ms. */
export const HOP = 160;

/**
 * `samples` at `RATE`: each output sample is the mean of the input samples around it (a box
 * filter as wide as the step, enough against aliasing for what the analysis looks at).
 */
export function resample(samples: Float32Array, fromRate: number): Float32Array {
  if (fromRate === RATE) return samples;
  const step = fromRate / RATE;
  const out = new Float32Array(Math.floor(samples.length / step));
  // prefix sums make every box mean O(1)
  const sums = new Float64Array(samples.length + 1);
  for (let i = 0; i < samples.length; i++) sums[i + 1] = (sums[i] as number) + (samples[i] as number);
  for (let k = 0; k < out.length; k++) {
    const from = Math.max(0, Math.floor((k - 0.5) * step));
    const to = Math.min(samples.length, Math.max(from + 1, Math.ceil((k + 0.5) * step)));
    out[k] = ((sums[to] as number) - (sums[from] as number)) / (to - from);
  }
  return out;
}

/** Scales the sound so that its loudest 10 ms has a root mean square of 0.1 (a quiet microphone counts the same). */
export function normaliseLevel(samples: Float32Array): Float32Array {
  let loudest = 0;
  for (let from = 0; from + HOP <= samples.length; from += HOP) {
    let sum = 0;
    for (let i = from; i < from + HOP; i++) sum += (samples[i] as number) ** 2;
    loudest = Math.max(loudest, sum / HOP);
  }
  if (loudest < 1e-12) return samples;
  const gain = 0.1 / Math.sqrt(loudest);
  return samples.map((v) => v * gain);
}

/** Energy of each frame (`HOP` apart, `length` long), in decibels. */
export function frameEnergies(samples: Float32Array, frames: number, length: number): Float64Array {
  const out = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    const from = f * HOP;
    const to = Math.min(samples.length, from + length);
    let sum = 0;
    for (let i = from; i < to; i++) sum += (samples[i] as number) ** 2;
    out[f] = 10 * Math.log10(sum / length + 1e-12);
  }
  return out;
}

/**
 * Which frames carry the voice: louder than both 40 dB under the loudest frame and 8 dB over the
 * background (the 10th percentile of the frames).
 */
export function voicedFrames(energies: Float64Array): Uint8Array {
  const sorted = Float64Array.from(energies).sort();
  const loudest = sorted[sorted.length - 1] ?? -120;
  const floor = sorted[Math.floor(sorted.length * 0.1)] ?? -120;
  const threshold = Math.max(loudest - 40, floor + 8);
  return Uint8Array.from(energies, (e) => (e > threshold ? 1 : 0));
}

/**
 * From the first to the last run of at least three voiced frames, with 50 ms of margin: the
 * recording without the silence (and the click of the button) before and after. Null when no voice.
 */
export function speechSpan(voiced: Uint8Array): { from: number; to: number } | null {
  const runStart = (i: number) => voiced[i] && voiced[i + 1] && voiced[i + 2];
  let from = -1;
  for (let i = 0; i + 2 < voiced.length; i++)
    if (runStart(i)) {
      from = i;
      break;
    }
  if (from < 0) return null;
  let to = from;
  for (let i = voiced.length - 3; i >= from; i--)
    if (runStart(i)) {
      to = i + 3;
      break;
    }
  return { from: Math.max(0, from - 5), to: Math.min(voiced.length, to + 5) };
}
