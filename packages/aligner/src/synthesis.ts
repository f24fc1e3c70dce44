/**
 * Synthesis mode: where espeak-ng is installed, it reads the script aloud, and that reading serves
 * as an acoustic reference (the approach of echogarden's DTW aligner, done per line junction).
 *
 * 1. One espeak-ng process (never linked: spawned, text on stdin as SSML) reads every line with a
 *    long break between lines; the output is cut at those breaks into one clip per line.
 * 2. Each line's expected speech time becomes its synthesized speech time (far closer to how long
 *    a reader takes than a syllable count: it knows the language's phonemes and its commas), and
 *    the assignment of lines to pauses is computed again with it.
 * 3. For each junction between two lines, the reference's MFCCs of both lines are matched to the
 *    recording around the junction found so far by subsequence dynamic time warping; where the
 *    reference's junction lands is a hint, and the assignment is computed a last time with a cost
 *    for boundaries far from their hints. A line whose hints disagree with its pauses loses
 *    confidence.
 * If espeak-ng is missing, fails, or its output cannot be cut into the script's lines, the result
 * of signal mode stands (and says so).
 */
import { spawn, spawnSync } from "node:child_process";
import { decodeAudio } from "./decode.js";
import { CEPSTRA, computeFeatures, type Features } from "./features.js";
import type { AlignLanguage } from "./script.js";
import { type Segment, segmentLines } from "./segment.js";
import { analyseSpeech, type SpeechAnalysis } from "./speech.js";

export interface Synthesizer {
  /** the espeak-ng executable */
  command: string;
}

const VOICES: Record<AlignLanguage, string> = { fr: "fr", en: "en-us", es: "es" };
const BREAK_MS = 700;
/** a run of digital silence this long in the reference is a break between two lines */
const BREAK_FRAMES = 55;

let found: Synthesizer | null | undefined;

/** espeak-ng on the PATH, if it answers (looked up once per process). */
export function findSynthesizer(): Synthesizer | null {
  if (found !== undefined) return found;
  const probe = spawnSync("espeak-ng", ["--version"], { encoding: "utf8", timeout: 5000 });
  found = probe.status === 0 && /eSpeak NG/i.test(probe.stdout) ? { command: "espeak-ng" } : null;
  return found;
}

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] as string,
  );

function synthesize(synthesizer: Synthesizer, lines: string[], lang: AlignLanguage): Promise<Uint8Array> {
  const ssml = `<speak>${lines.map(escapeXml).join(`<break time="${BREAK_MS}ms"/>`)}</speak>`;
  return new Promise((resolve, reject) => {
    const child = spawn(synthesizer.command, ["-v", VOICES[lang], "-m", "--stdin", "--stdout"], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`espeak-ng exited with ${code}`));
      else {
        const all = Buffer.concat(chunks);
        resolve(new Uint8Array(all.buffer, all.byteOffset, all.byteLength));
      }
    });
    child.stdin.end(ssml, "utf8");
  });
}

/** Frame ranges [start, end) of each line in the reference, cut at the long breaks. */
function cutAtBreaks(features: Features, speech: SpeechAnalysis, count: number): [number, number][] | null {
  const { presence } = speech;
  const quiet = (t: number) => (presence[t] as number) < 0.05;
  const ranges: [number, number][] = [];
  let t = 0;
  while (t < features.frames && quiet(t)) t++;
  let start = t;
  while (t < features.frames) {
    if (quiet(t)) {
      const from = t;
      while (t < features.frames && quiet(t)) t++;
      if (t - from >= BREAK_FRAMES || t >= features.frames) {
        ranges.push([start, from]);
        start = t;
      }
    } else t++;
  }
  if (start < features.frames) ranges.push([start, features.frames]);
  return ranges.length === count ? ranges : null;
}

export interface RefineInput {
  lines: string[];
  lang: AlignLanguage;
  synthesizer: Synthesizer | undefined;
  features: Features;
  speech: SpeechAnalysis;
  onProgress: (fraction: number) => void;
}

export interface Refined {
  segments: Segment[];
  /** per line, a cost for hints that disagree with the boundaries chosen (0 when they agree) */
  hintErrors: number[];
}

export async function refineWithSynthesis(input: RefineInput): Promise<Refined | null> {
  const synthesizer = input.synthesizer ?? findSynthesizer();
  if (!synthesizer) return null;
  let reference: Features;
  let ranges: [number, number][] | null;
  let refSpeech: SpeechAnalysis;
  try {
    const wav = await synthesize(synthesizer, input.lines, input.lang);
    input.onProgress(0.3);
    reference = computeFeatures((await decodeAudio(wav)).samples, false);
    refSpeech = analyseSpeech(reference);
    ranges = cutAtBreaks(reference, refSpeech, input.lines.length);
  } catch {
    return null;
  }
  if (!ranges) return null;
  input.onProgress(0.5);
  const refPresence = refSpeech.presence;
  const weights = ranges.map(([a, b]) => {
    let s = 0;
    for (let t = a; t < b; t++) s += refPresence[t] as number;
    return Math.max(5, s);
  });
  const { presence, pauses } = input.speech;
  const first = segmentLines({ presence, pauses, weights });
  const rate = first.reduce((a, s) => a + s.speech, 0) / weights.reduce((a, w) => a + w, 0);
  input.onProgress(0.6);
  const hints = junctionHints(input.features, reference, ranges, first);
  input.onProgress(0.9);
  const segments = segmentLines({ presence, pauses, weights, hints, rate });
  // how far each junction's hint is from the pause chosen for it (0–1, 1 at 0.3 s and beyond)
  const misses = hints.map((h, j) => {
    if (h === null || h === undefined) return 0;
    const from = (segments[j] as Segment).end;
    const to = (segments[j + 1] as Segment).start;
    return Math.min(1, (h < from ? from - h : h > to ? h - to : 0) / 30);
  });
  const hintErrors = segments.map((_, i) => 0.5 * ((misses[i - 1] ?? 0) + (misses[i] ?? 0)));
  return { segments, hintErrors };
}

/** DTW runs on pairs of frames (20 ms): a quarter of the work, and hints need no finer step */
const STEP = 2;

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

const MARGIN_FRAMES = 50;

/**
 * For each junction between line i and i+1: the recording frame where the reference's junction
 * lands, by subsequence DTW of the reference's two lines (silences trimmed) over the recording from
 * a little before line i to a little after line i+1 as placed so far.
 */
function junctionHints(
  recording: Features,
  reference: Features,
  ranges: [number, number][],
  segments: Segment[],
): (number | null)[] {
  const hints: (number | null)[] = [];
  for (let i = 0; i + 1 < segments.length; i++) {
    const [a0, a1] = ranges[i] as [number, number];
    const [b0, b1] = ranges[i + 1] as [number, number];
    const left = normalisedMfcc(reference, a0, a1);
    const right = normalisedMfcc(reference, b0, b1);
    const ref = new Float32Array(left.length + right.length);
    ref.set(left);
    ref.set(right, left.length);
    const junction = Math.floor((a1 - a0) / STEP);
    const from = Math.max(0, (segments[i] as Segment).start - MARGIN_FRAMES);
    const to = Math.min(recording.frames, (segments[i + 1] as Segment).end + MARGIN_FRAMES);
    if (to - from < 10 || ref.length === 0) {
      hints.push(null);
      continue;
    }
    const rec = normalisedMfcc(recording, from, to);
    const landed = subsequenceDtw(ref, rec, junction);
    hints.push(landed === null ? null : from + landed * STEP);
  }
  return hints;
}

/**
 * Subsequence DTW (the reference must be matched whole, anywhere in the recording window);
 * returns the recording frame matched to reference frame `mark`.
 */
function subsequenceDtw(ref: Float32Array, rec: Float32Array, mark: number): number | null {
  const n = ref.length / CEPSTRA;
  const m = rec.length / CEPSTRA;
  if (n === 0 || m === 0) return null;
  const cost = new Float32Array(n * m);
  // 0: diagonal, 1: from the previous reference frame, 2: from the previous recording frame
  const move = new Uint8Array(n * m);
  const distance = (i: number, j: number) => {
    let d = 0;
    for (let c = 0; c < CEPSTRA; c++) {
      const x = (ref[i * CEPSTRA + c] as number) - (rec[j * CEPSTRA + c] as number);
      d += x * x;
    }
    return Math.sqrt(d);
  };
  for (let j = 0; j < m; j++) cost[j] = distance(0, j);
  for (let i = 1; i < n; i++) {
    const row = i * m;
    cost[row] = (cost[row - m] as number) + distance(i, 0);
    move[row] = 1;
    for (let j = 1; j < m; j++) {
      const d = distance(i, j);
      const diag = (cost[row - m + j - 1] as number) + d;
      const up = (cost[row - m + j] as number) + d;
      const leftCost = (cost[row + j - 1] as number) + d;
      if (diag <= up && diag <= leftCost) {
        cost[row + j] = diag;
        move[row + j] = 0;
      } else if (up <= leftCost) {
        cost[row + j] = up;
        move[row + j] = 1;
      } else {
        cost[row + j] = leftCost;
        move[row + j] = 2;
      }
    }
  }
  let j = 0;
  for (let k = 1; k < m; k++)
    if ((cost[(n - 1) * m + k] as number) < (cost[(n - 1) * m + j] as number)) j = k;
  let i = n - 1;
  while (i > mark && i > 0) {
    const mv = move[i * m + j];
    if (mv === 0) {
      i--;
      j--;
    } else if (mv === 1) i--;
    else j--;
    if (j < 0) return null;
  }
  return j;
}
