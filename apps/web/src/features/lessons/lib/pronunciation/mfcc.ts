import { HOP, RATE } from "./signal";

/**
 * Mel-frequency cepstral coefficients: the shape of the spectrum of each 25 ms frame, the usual
 * description of "which sound" that speech recognisers start from. Written here rather than taken
 * from meyda: meyda 5.6 allocates 27 arrays per frame and multiplies the whole 26 × 256 filter bank,
 * about five times the time of this one (docs/decisions.md); the steps are the textbook ones
 * (pre-emphasis 0.97, Hamming window, 512-point FFT, 26 triangular mel filters 60–7600 Hz, log,
 * DCT-II, coefficients 1–12).
 */

export const FRAME = 400;
const FFT_SIZE = 512;
const BINS = FFT_SIZE / 2 + 1;
const FILTERS = 26;
export const COEFFICIENTS = 12;

const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const hz = (m: number) => 700 * (10 ** (m / 2595) - 1);

interface Tables {
  window: Float64Array;
  cos: Float64Array;
  sin: Float64Array;
  reversed: Uint16Array;
  /** per filter: first bin and the weights from it */
  filters: { first: number; weights: Float64Array }[];
  /** DCT-II rows 1..COEFFICIENTS over the FILTERS log energies */
  dct: Float64Array;
}

let tables: Tables | null = null;

function makeTables(): Tables {
  const window = Float64Array.from(
    { length: FRAME },
    (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (FRAME - 1)),
  );
  const cos = Float64Array.from({ length: FFT_SIZE / 2 }, (_, i) => Math.cos((2 * Math.PI * i) / FFT_SIZE));
  const sin = Float64Array.from({ length: FFT_SIZE / 2 }, (_, i) => -Math.sin((2 * Math.PI * i) / FFT_SIZE));
  const bits = Math.log2(FFT_SIZE);
  const reversed = Uint16Array.from({ length: FFT_SIZE }, (_, i) => {
    let r = 0;
    for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
    return r;
  });
  const low = mel(60);
  const high = mel(7600);
  const edges = Array.from(
    { length: FILTERS + 2 },
    (_, i) => (hz(low + ((high - low) * i) / (FILTERS + 1)) * FFT_SIZE) / RATE,
  );
  const filters = Array.from({ length: FILTERS }, (_, f) => {
    const [left, centre, right] = [edges[f] as number, edges[f + 1] as number, edges[f + 2] as number];
    const first = Math.max(0, Math.ceil(left));
    const last = Math.min(BINS - 1, Math.floor(right));
    const weights = Float64Array.from({ length: Math.max(0, last - first + 1) }, (_, k) => {
      const bin = first + k;
      return bin <= centre ? (bin - left) / (centre - left) : (right - bin) / (right - centre);
    });
    return { first, weights };
  });
  const dct = new Float64Array(COEFFICIENTS * FILTERS);
  for (let c = 0; c < COEFFICIENTS; c++)
    for (let n = 0; n < FILTERS; n++)
      dct[c * FILTERS + n] = Math.cos((Math.PI * (c + 1) * (n + 0.5)) / FILTERS);
  return { window, cos, sin, reversed, filters, dct };
}

/** In-place radix-2 FFT of (re, im), FFT_SIZE long. */
function fft(re: Float64Array, im: Float64Array, t: Tables): void {
  for (let i = 0; i < FFT_SIZE; i++) {
    const j = t.reversed[i] as number;
    if (j > i) {
      const r = re[i] as number;
      re[i] = re[j] as number;
      re[j] = r;
    }
  }
  for (let size = 2; size <= FFT_SIZE; size *= 2) {
    const half = size / 2;
    const step = FFT_SIZE / size;
    for (let start = 0; start < FFT_SIZE; start += size) {
      for (let k = 0; k < half; k++) {
        const wr = t.cos[k * step] as number;
        const wi = t.sin[k * step] as number;
        const a = start + k;
        const b = a + half;
        const br = re[b] as number;
        const bi = im[b] as number;
        const xr = br * wr - bi * wi;
        const xi = br * wi + bi * wr;
        re[b] = (re[a] as number) - xr;
        im[b] = (im[a] as number) - xi;
        re[a] = (re[a] as number) + xr;
        im[a] = (im[a] as number) + xi;
      }
    }
  }
}

/** The coefficients of frames [from, to) of `samples` (at RATE), one row of COEFFICIENTS per frame. */
export function mfcc(samples: Float32Array, from: number, to: number): Float32Array {
  tables ??= makeTables();
  const t = tables;
  const frames = Math.max(0, to - from);
  const out = new Float32Array(frames * COEFFICIENTS);
  const re = new Float64Array(FFT_SIZE);
  const im = new Float64Array(FFT_SIZE);
  const logs = new Float64Array(FILTERS);
  for (let f = 0; f < frames; f++) {
    const first = (from + f) * HOP;
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < FRAME; i++) {
      const at = first + i;
      const x = at < samples.length ? (samples[at] as number) : 0;
      const previous = at > 0 && at - 1 < samples.length ? (samples[at - 1] as number) : 0;
      re[i] = (x - 0.97 * previous) * (t.window[i] as number);
    }
    fft(re, im, t);
    for (let n = 0; n < FILTERS; n++) {
      const { first, weights } = t.filters[n] as Tables["filters"][number];
      let energy = 0;
      for (let k = 0; k < weights.length; k++) {
        const bin = first + k;
        energy += (weights[k] as number) * ((re[bin] as number) ** 2 + (im[bin] as number) ** 2);
      }
      logs[n] = Math.log(energy + 1e-8);
    }
    for (let c = 0; c < COEFFICIENTS; c++) {
      let sum = 0;
      for (let n = 0; n < FILTERS; n++) sum += (t.dct[c * FILTERS + n] as number) * (logs[n] as number);
      out[f * COEFFICIENTS + c] = sum;
    }
  }
  return out;
}

/**
 * Each coefficient minus its mean and over its deviation across the frames, in place: what stays
 * is how the spectrum moves, not the microphone's or the voice's constant colour.
 */
export function normaliseCoefficients(out: Float32Array): Float32Array {
  const n = Math.max(1, out.length / COEFFICIENTS);
  for (let c = 0; c < COEFFICIENTS; c++) {
    let sum = 0;
    let squares = 0;
    for (let f = 0; f < n; f++) {
      const v = out[f * COEFFICIENTS + c] as number;
      sum += v;
      squares += v * v;
    }
    const mean = sum / n;
    const deviation = Math.sqrt(Math.max(1e-9, squares / n - mean * mean));
    for (let f = 0; f < n; f++)
      out[f * COEFFICIENTS + c] = ((out[f * COEFFICIENTS + c] as number) - mean) / deviation;
  }
  return out;
}
