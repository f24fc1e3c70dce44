/**
 * Aligns a lesson's script to its audio: each line gets a start, an end and a confidence.
 * Pure computation on bytes and strings (no database, no HTTP, no global state), so it runs as
 * well in a worker thread as in the CLI; the only outside thing it may use is an espeak-ng
 * executable, run as a separate process, when one is installed (see synthesis.ts).
 */
import { type DecodedAudio, decodeAudio } from "./decode.js";
import { computeFeatures, FRAME_SECONDS } from "./features.js";
import { type AlignLanguage, innerPauseCount, syllableCount } from "./script.js";
import { type Segment, segmentLines } from "./segment.js";
import { analyseSpeech } from "./speech.js";
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

function confidenceOf(segment: Segment, hintError = 0): number {
  const r = segment.durationError;
  const cost = 1.5 * r * r + 0.6 * (1 - segment.startStrength) + 0.6 * (1 - segment.endStrength) + hintError;
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
  let hintErrors: number[] = lines.map(() => 0);
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
    const weights = lines.map((l) => syllableCount(l, options.lang));
    const innerPauses = lines.map(innerPauseCount);
    segments = segmentLines({ presence: speech.presence, pauses: speech.pauses, weights, innerPauses });
  }
  options.onProgress?.(1);
  const cues = segments.map((s, index) => {
    const confidence = confidenceOf(s, hintErrors[index]);
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

const round = (x: number) => Math.round(x * 1000) / 1000;
