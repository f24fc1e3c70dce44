/**
 * Short-time features of 16 kHz mono audio: one frame every 10 ms over a 25 ms Hann window,
 * log energies in 40 mel bands (100–7600 Hz), and 12 MFCCs (c1–c12, without c0 so that
 * loudness does not weigh in a comparison of two voices; DTW uses them).
 */
import FFT from "fft.js";
import { ANALYSIS_RATE } from "./decode.js";

const HOP = 160; // 10 ms
export const FRAME_SECONDS = HOP / ANALYSIS_RATE;
const WINDOW = 400; // 25 ms
const FFT_SIZE = 512;
export const BANDS = 40;
export const CEPSTRA = 12;
const LOW_HZ = 100;
const HIGH_HZ = 7600;
/** log of the power floor: about -100 dB below full scale, so digital silence stays finite */
export const LOG_FLOOR = Math.log(1e-10);

export interface Features {
  frames: number;
  /** frames × BANDS natural-log mel energies */
  logMel: Float32Array;
  /** frames × CEPSTRA */
  mfcc: Float32Array;
  /**
   * Per frame, how alike the fine structure of its spectrum (harmonic peaks, 200–4000 Hz) is to
   * that of the frame 80 ms earlier, -1–1: held notes of music keep their peaks in the same FFT
   * bins, a voice moves them (intonation, and a new phoneme every 50–100 ms).
   */
  steadiness: Float32Array;
}

const FINE_LO = 7; // FFT bin (≈220 Hz)
const FINE_HI = 128; // ≈4000 Hz
const FINE_LAG = 8; // frames
const FINE_SMOOTH = 3; // bins each side for the envelope that is removed

const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const hz = (m: number) => 700 * (10 ** (m / 2595) - 1);

/** Triangular mel filters over the FFT bins, as [firstBin, weights] per band. */
function melFilters(): { first: number; weights: Float32Array }[] {
  const lo = mel(LOW_HZ);
  const hi = mel(HIGH_HZ);
  const edges = Array.from(
    { length: BANDS + 2 },
    (_, i) => (hz(lo + ((hi - lo) * i) / (BANDS + 1)) * FFT_SIZE) / ANALYSIS_RATE,
  );
  const filters: { first: number; weights: Float32Array }[] = [];
  for (let b = 0; b < BANDS; b++) {
    const left = edges[b] as number;
    const centre = edges[b + 1] as number;
    const right = edges[b + 2] as number;
    const first = Math.max(0, Math.floor(left));
    const last = Math.min(FFT_SIZE / 2, Math.ceil(right));
    const weights = new Float32Array(last - first + 1);
    for (let k = first; k <= last; k++) {
      const w = k <= centre ? (k - left) / (centre - left) : (right - k) / (right - centre);
      weights[k - first] = Math.max(0, w);
    }
    filters.push({ first, weights });
  }
  return filters;
}

/** The band index whose centre is nearest to a frequency. */
export function bandOf(frequency: number): number {
  const lo = mel(LOW_HZ);
  const hi = mel(HIGH_HZ);
  const i = Math.round(((mel(frequency) - lo) / (hi - lo)) * (BANDS + 1)) - 1;
  return Math.min(BANDS - 1, Math.max(0, i));
}

/** withSteadiness: false skips the music measure (a synthesizer's reference has no music). */
export function computeFeatures(samples: Float32Array, withSteadiness = true): Features {
  const frames = Math.max(0, Math.floor((samples.length - WINDOW) / HOP) + 1);
  const logMel = new Float32Array(frames * BANDS);
  const mfcc = new Float32Array(frames * CEPSTRA);
  const fft = new FFT(FFT_SIZE);
  const input = new Float64Array(FFT_SIZE);
  const out = fft.createComplexArray() as number[];
  const hann = Float64Array.from(
    { length: WINDOW },
    (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (WINDOW - 1)),
  );
  const power = new Float64Array(FFT_SIZE / 2 + 1);
  const filters = melFilters();
  // DCT-II basis for c1..c12
  const dct = new Float64Array(CEPSTRA * BANDS);
  for (let c = 0; c < CEPSTRA; c++) {
    for (let b = 0; b < BANDS; b++)
      dct[c * BANDS + b] = Math.cos((Math.PI * (c + 1) * (b + 0.5)) / BANDS) * Math.sqrt(2 / BANDS);
  }
  const bands = new Float64Array(BANDS);
  const fineWidth = FINE_HI - FINE_LO;
  const steadiness = new Float32Array(frames);
  const ring = Array.from({ length: FINE_LAG + 1 }, () => new Float32Array(fineWidth));
  const logPower = new Float64Array(FFT_SIZE / 2 + 1);
  for (let t = 0; t < frames; t++) {
    const offset = t * HOP;
    // digital silence (a synthesizer's breaks, an edited pause): nothing to transform
    let silent = true;
    for (let i = 0; i < WINDOW; i++) {
      if ((samples[offset + i] as number) !== 0) {
        silent = false;
        break;
      }
    }
    if (silent) {
      logMel.fill(LOG_FLOOR, t * BANDS, (t + 1) * BANDS);
      const fine = ring[t % (FINE_LAG + 1)] as Float32Array;
      fine.fill(0);
      continue;
    }
    // pre-emphasis then window
    let previous = offset > 0 ? (samples[offset - 1] as number) : 0;
    for (let i = 0; i < WINDOW; i++) {
      const x = samples[offset + i] as number;
      input[i] = (x - 0.97 * previous) * (hann[i] as number);
      previous = x;
    }
    fft.realTransform(out, input);
    for (let k = 0; k <= FFT_SIZE / 2; k++) {
      const re = out[2 * k] as number;
      const im = out[2 * k + 1] as number;
      power[k] = re * re + im * im;
    }
    for (let b = 0; b < BANDS; b++) {
      const { first, weights } = filters[b] as { first: number; weights: Float32Array };
      let e = 0;
      for (let k = 0; k < weights.length; k++) e += (power[first + k] as number) * (weights[k] as number);
      const value = Math.max(LOG_FLOOR, Math.log(e / FFT_SIZE + 1e-20));
      bands[b] = value;
      logMel[t * BANDS + b] = value;
    }
    for (let c = 0; c < CEPSTRA; c++) {
      let v = 0;
      for (let b = 0; b < BANDS; b++) v += (dct[c * BANDS + b] as number) * (bands[b] as number);
      mfcc[t * CEPSTRA + c] = v;
    }
    if (!withSteadiness) continue;
    // fine structure: log power minus its local mean over a few bins (a running sum), normalised
    for (let k = FINE_LO - FINE_SMOOTH; k <= FINE_HI + FINE_SMOOTH; k++) {
      logPower[k] = Math.log((power[k] as number) + 1e-12);
    }
    const fine = ring[t % (FINE_LAG + 1)] as Float32Array;
    let norm = 0;
    let sum = 0;
    for (let k = FINE_LO - FINE_SMOOTH; k <= FINE_LO + FINE_SMOOTH; k++) sum += logPower[k] as number;
    for (let k = FINE_LO; k < FINE_HI; k++) {
      const v = (logPower[k] as number) - sum / (2 * FINE_SMOOTH + 1);
      fine[k - FINE_LO] = v;
      norm += v * v;
      sum += (logPower[k + FINE_SMOOTH + 1] as number) - (logPower[k - FINE_SMOOTH] as number);
    }
    norm = Math.sqrt(norm) || 1;
    for (let k = 0; k < fineWidth; k++) fine[k] = (fine[k] as number) / norm;
    if (t >= FINE_LAG) {
      const before = ring[(t - FINE_LAG) % (FINE_LAG + 1)] as Float32Array;
      let dot = 0;
      for (let k = 0; k < fineWidth; k++) dot += (fine[k] as number) * (before[k] as number);
      steadiness[t] = dot;
    }
  }
  return { frames, logMel, mfcc, steadiness };
}
