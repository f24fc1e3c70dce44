import { dtw, frameDistance } from "./dtw";
import { COEFFICIENTS, FRAME, mfcc, normaliseCoefficients } from "./mfcc";
import { pitchTrack, semitones } from "./pitch";
import { frameEnergies, HOP, normaliseLevel, RATE, resample, speechSpan, voicedFrames } from "./signal";
import { mapStretch, stretchesOf } from "./stretches";

/**
 * How close a learner's recording of a line is to the line's model voice: spectra aligned by
 * dynamic time warping (sounds), pitch contours compared once aligned (melody), and the length of
 * each stretch against the learner's overall pace (rhythm). A measure of closeness to one voice,
 * not of phonetic correctness: see docs/decisions.md for the method and its limits.
 */

type AdviceKey =
  | "close"
  | "tooSlow"
  | "tooFast"
  | "sounds"
  | "flat"
  | "melody"
  | "stretchSlow"
  | "stretchFast";

export interface StretchRhythm {
  /** seconds in the model, and in the recording */
  model: number;
  learner: number;
  /** the learner's length over the model's, divided by the learner's overall pace (1: in step) */
  relative: number;
}

export interface PronunciationResult {
  /** 0–100, null when no voice was heard in the recording */
  score: number | null;
  /** each 0–100 (melody null when too little of either is voiced) */
  parts: { sounds: number; melody: number | null; rhythm: number } | null;
  advice: { key: AdviceKey | "noVoice"; stretch?: number };
  /** the recording's speech length over the model's */
  pace: number | null;
  /** both pitch contours in semitones around each speaker's median, on the model's time (seconds) */
  contour: { seconds: number; model: (number | null)[]; learner: (number | null)[] } | null;
  stretches: StretchRhythm[];
}

interface Described {
  coefficients: Float32Array;
  pitch: (number | null)[];
  voiced: Uint8Array;
  energies: Float64Array;
  frames: number;
}

/**
 * Everything the comparison needs from one sound, or null when it holds no voice.
 * @public
 */
export function describe(samples: Float32Array, sampleRate: number): Described | null {
  const x = normaliseLevel(resample(samples, sampleRate));
  const total = x.length >= FRAME ? Math.floor((x.length - FRAME) / HOP) + 1 : 0;
  const energies = frameEnergies(x, total, FRAME);
  const voiced = voicedFrames(energies);
  const span = speechSpan(voiced);
  if (!span || span.to - span.from < 10) return null;
  return {
    coefficients: normaliseCoefficients(mfcc(x, span.from, span.to)),
    pitch: semitones(pitchTrack(x, voiced, span.from, span.to)),
    voiced: voiced.slice(span.from, span.to),
    energies: energies.slice(span.from, span.to),
    frames: span.to - span.from,
  };
}

// The aligned distance over the unaligned one, for a full and for a nil "sounds" part. Read off
// the benchmark's corpus (scripts/bench/figures/pronunciation.mjs); the benchmark judges only the
// order of scores, which these constants do not change.
const RATIO_GOOD = 0.5;
const RATIO_BAD = 0.9;
/** Semitones of mean difference between the contours for a perfect and for a nil melody. */
const MELODY_GOOD = 1;
const MELODY_BAD = 5;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/** Mean distance of frames paired without alignment (a grid of about 40 × 40): what "unrelated" costs for these two voices. */
function unalignedDistance(a: Described, b: Described): number {
  const stepA = Math.max(1, Math.floor(a.frames / 40));
  const stepB = Math.max(1, Math.floor(b.frames / 40));
  let sum = 0;
  let count = 0;
  for (let i = 0; i < a.frames; i += stepA)
    for (let j = 0; j < b.frames; j += stepB) {
      sum += frameDistance(a.coefficients, i, b.coefficients, j, COEFFICIENTS);
      count++;
    }
  return sum / Math.max(1, count);
}

/** The learner's contour carried onto the model's frames (mean of the frames each was aligned with). */
function warpContour(path: readonly [number, number][], learner: (number | null)[], frames: number) {
  const sums = new Float64Array(frames);
  const counts = new Uint16Array(frames);
  for (const [i, j] of path) {
    const v = learner[j];
    if (v === null || v === undefined) continue;
    sums[i] = (sums[i] as number) + v;
    counts[i] = (counts[i] as number) + 1;
  }
  return Array.from(sums, (s, i) => ((counts[i] as number) > 0 ? s / (counts[i] as number) : null));
}

function deviation(values: readonly number[]): number {
  const mean = values.reduce((s, v) => s + v, 0) / Math.max(1, values.length);
  return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / Math.max(1, values.length));
}

/** At most `points` values, each the mean of the known values of its slice (a contour to draw). */
function thin(values: readonly (number | null)[], points: number): (number | null)[] {
  const size = Math.max(1, Math.ceil(values.length / points));
  const out: (number | null)[] = [];
  for (let from = 0; from < values.length; from += size) {
    const known = values.slice(from, from + size).filter((v): v is number => v !== null);
    out.push(known.length ? Math.round((known.reduce((s, v) => s + v, 0) / known.length) * 100) / 100 : null);
  }
  return out;
}

const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;

/** The model line's samples (at its rate) against the learner's recording (at its own). */
export function comparePronunciation(
  model: Float32Array,
  modelRate: number,
  recording: Float32Array,
  recordingRate: number,
): PronunciationResult {
  return compareDescribed(describe(model, modelRate), describe(recording, recordingRate));
}

/**
 * The comparison once both sounds are described (the benchmark describes each clip once).
 * @public
 */
export function compareDescribed(a: Described | null, b: Described | null): PronunciationResult {
  if (!a || !b)
    return { score: null, parts: null, advice: { key: "noVoice" }, pace: null, contour: null, stretches: [] };
  const alignment = dtw(a.coefficients, b.coefficients, COEFFICIENTS);
  const ratio = alignment.distance / unalignedDistance(a, b);
  const sounds = clamp01((RATIO_BAD - ratio) / (RATIO_BAD - RATIO_GOOD));

  const warped = warpContour(alignment.path, b.pitch, a.frames);
  const both: [number, number][] = [];
  a.pitch.forEach((v, i) => {
    const w = warped[i];
    if (v !== null && w !== null && w !== undefined) both.push([v, w]);
  });
  const melodyKnown = both.length >= 10;
  const melodyGap = Math.sqrt(both.reduce((s, [m, l]) => s + (m - l) ** 2, 0) / Math.max(1, both.length));
  const melody = melodyKnown ? clamp01((MELODY_BAD - melodyGap) / (MELODY_BAD - MELODY_GOOD)) : null;
  const range = deviation(both.map(([, l]) => l)) / Math.max(0.5, deviation(both.map(([m]) => m)));

  const pace = b.frames / a.frames;
  const stretches = stretchesOf(a.voiced, a.energies).map((s) => {
    const [from, to] = mapStretch(s, alignment.path);
    const model = s[1] - s[0];
    const learner = to - from;
    return { model: (model * HOP) / RATE, learner: (learner * HOP) / RATE, relative: learner / model / pace };
  });
  const modelFrames = stretches.reduce((sum, s) => sum + s.model, 0);
  const drift =
    stretches.reduce((sum, s) => sum + s.model * Math.abs(Math.log(s.relative)), 0) /
    Math.max(1e-9, modelFrames);
  // the overall pace counts too, beyond 15 % faster or slower, at half the weight of the stretches
  const slowness = Math.max(0, Math.abs(Math.log(pace)) - Math.log(1.15));
  const rhythm = clamp01(1 - (drift + 0.5 * slowness) / Math.log(2));

  const score = Math.round(
    100 * (melody === null ? 0.8 * sounds + 0.2 * rhythm : 0.7 * sounds + 0.15 * melody + 0.15 * rhythm),
  );
  const offStretch = stretches.reduce(
    (worst, s, i) =>
      Math.abs(Math.log(s.relative)) > Math.abs(Math.log((stretches[worst] as StretchRhythm).relative))
        ? i
        : worst,
    0,
  );
  const advice = adviceFor({ score, pace, sounds, melody, rhythm, range, offStretch, stretches });
  return {
    score,
    parts: {
      sounds: Math.round(100 * sounds),
      melody: melody === null ? null : Math.round(100 * melody),
      rhythm: Math.round(100 * rhythm),
    },
    advice,
    pace: round(pace),
    contour: { seconds: (a.frames * HOP) / RATE, model: thin(a.pitch, 200), learner: thin(warped, 200) },
    stretches: stretches.map((s) => ({
      model: round(s.model),
      learner: round(s.learner),
      relative: round(s.relative),
    })),
  };
}

/** The one piece of advice worth giving: the pace when it is far off, else the weakest part unless all are good. */
function adviceFor(p: {
  score: number;
  pace: number;
  sounds: number;
  melody: number | null;
  rhythm: number;
  range: number;
  offStretch: number;
  stretches: StretchRhythm[];
}): PronunciationResult["advice"] {
  if (p.pace > 1.5) return { key: "tooSlow" };
  if (p.pace < 0.67) return { key: "tooFast" };
  const weakest = Math.min(p.sounds, p.melody ?? 1, p.rhythm);
  // a close recording with one clearly weak part still hears about that part
  if (p.score >= 85 && weakest >= 0.7) return { key: "close" };
  if (p.melody !== null && weakest === p.melody) return { key: p.range < 0.6 ? "flat" : "melody" };
  if (weakest === p.rhythm && p.stretches.length > 1) {
    const off = p.stretches[p.offStretch] as StretchRhythm;
    return { key: off.relative > 1 ? "stretchSlow" : "stretchFast", stretch: p.offStretch + 1 };
  }
  return { key: "sounds" };
}
