/**
 * Aligns a lesson's script to its audio: each line gets a start, an end and a confidence.
 * Pure computation on bytes and strings (no database, no HTTP, no global state), so it runs as
 * well in a worker thread as in the CLI; the only outside thing it may use is an espeak-ng
 * executable, run as a separate process, when one is installed (see synthesis.ts).
 */
import { type DecodedAudio, decodeAudio } from "./decode.js";
import { computeFeatures, FRAME_SECONDS } from "./features.js";
import { type AlignLanguage, expectedWeight, innerPauseCount, syllableCount } from "./script.js";
import { type Segment, segmentLines } from "./segment.js";
import { analyseSpeech, type SpeechAnalysis, syllableTime } from "./speech.js";
import { refineWithSynthesis, type Synthesizer } from "./synthesis.js";

export type AlignMode = "signal" | "synthesis";

export interface AlignedCue {
  index: number;
  text: string;
  /** seconds */
  start: number;
  end: number;
  /** 0–1: how well the line's length and its boundaries fit */
  confidence: number;
  /** worth a look by a person */
  doubtful: boolean;
}

export interface AlignResult {
  mode: AlignMode;
  /** seconds of audio */
  duration: number;
  cues: AlignedCue[];
}

export interface AlignOptions {
  lang: AlignLanguage;
  /**
   * "auto": use espeak-ng when it is installed; "off": signal analysis only; or a synthesizer
   * found beforehand with findSynthesizer().
   */
  synthesis?: "auto" | "off" | Synthesizer;
  /** called with 0–1 as the work advances */
  onProgress?: (fraction: number) => void;
}

export class AlignInputError extends Error {
  constructor(
    readonly code: "SCRIPT_EMPTY" | "SCRIPT_TOO_LONG",
    message: string,
  ) {
    super(message);
  }
}

/** Below this confidence a line is flagged for a look. */
const DOUBTFUL_BELOW = 0.5;

/** 0 for a boundary at a clear pause, up to 1 for one at a mere dip between two words */
const weakness = (strength: number) => Math.max(0, 0.5 - strength) * 2;

/**
 * A line's confidence: how far its speech time is from the expected one, and how weak its
 * boundaries are. In synthesis mode the expected time is the reference voice's, close enough that
 * a line off by a quarter is suspect, and weak pauses matter little (continuous reading has only
 * those); its junction hints, often a few tenths off even where the boundary is right, count a
 * little. Weighed on the benchmark corpus: in synthesis mode 6 of the 8 wrong lines are flagged,
 * and 10 right ones of 244; in signal mode half the wrong lines, and a quarter of the right ones,
 * mostly in continuous reading where every boundary is a guess.
 */
function confidenceOf(segment: Segment, hintError: number | undefined): number {
  const r = segment.durationError;
  const weak = weakness(segment.startStrength) + weakness(segment.endStrength);
  const cost = hintError === undefined ? 3 * r * r + 0.7 * weak : 15 * r * r + 0.3 * hintError + 0.1 * weak;
  return Math.exp(-cost);
}

export async function alignAudio(
  audio: Uint8Array | DecodedAudio,
  lines: string[],
  options: AlignOptions,
): Promise<AlignResult> {
  if (lines.length === 0) throw new AlignInputError("SCRIPT_EMPTY", "the script has no line");
  const decoded = audio instanceof Uint8Array ? await decodeAudio(audio) : audio;
  options.onProgress?.(0.2);
  const features = computeFeatures(decoded.samples);
  if (lines.length > features.frames / 20) {
    throw new AlignInputError(
      "SCRIPT_TOO_LONG",
      `${lines.length} lines cannot fit in ${decoded.duration.toFixed(1)} s of audio`,
    );
  }
  const speech = analyseSpeech(features);
  options.onProgress?.(0.4);
  let segments: Segment[] | undefined;
  let mode: AlignMode = "signal";
  let hintErrors: number[] | undefined;
  if (options.synthesis !== "off") {
    const refined = await refineWithSynthesis({
      lines,
      lang: options.lang,
      synthesizer:
        options.synthesis === "auto" || options.synthesis === undefined ? undefined : options.synthesis,
      features,
      speech,
      onProgress: (f) => options.onProgress?.(0.4 + 0.55 * f),
    });
    if (refined) {
      segments = refined.segments;
      hintErrors = refined.hintErrors;
      mode = "synthesis";
    }
  }
  if (!segments) {
    const weights = lines.map((l) => expectedWeight(l, options.lang));
    const innerPauses = lines.map(innerPauseCount);
    segments = segmentLines({
      presence: speech.presence,
      pauses: speech.pauses,
      weights,
      innerPauses,
      measure: "time",
      ratePrior: ratePrior(speech, lines, weights, options.lang),
      music: speech.music,
    });
  }
  options.onProgress?.(1);
  const cues = segments.map((s, index) => {
    const confidence = confidenceOf(s, hintErrors?.[index]);
    return {
      index,
      text: lines[index] as string,
      start: round(s.start * FRAME_SECONDS),
      end: round(Math.max(s.end, s.start + 1) * FRAME_SECONDS),
      confidence: round(confidence),
      doubtful: confidence < DOUBTFUL_BELOW,
    };
  });
  return { mode, duration: round(decoded.duration), cues };
}

/**
 * The speaking rate (frames per unit of expected weight) that the recording's syllable nuclei
 * suggest: syllable time × the script's syllables / its weight, × a factor measured on the
 * benchmark corpus (nuclei are missed where syllables run together).
 */
function ratePrior(speech: SpeechAnalysis, lines: string[], weights: number[], lang: AlignLanguage) {
  const perSyllable = syllableTime(speech);
  if (perSyllable === null) return undefined;
  const syllables = lines.reduce((a, l) => a + syllableCount(l, lang), 0);
  const weight = weights.reduce((a, b) => a + b, 0);
  return (NUCLEUS_FACTOR * perSyllable * syllables) / weight;
}
const NUCLEUS_FACTOR = 1.1;

const round = (x: number) => Math.round(x * 1000) / 1000;
