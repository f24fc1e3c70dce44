/**
 * Synthesis mode: placeholder until the reference voice is wired in.
 */
import type { Features } from "./features.js";
import type { AlignLanguage } from "./script.js";
import type { Segment } from "./segment.js";
import type { SpeechAnalysis } from "./speech.js";

export interface Synthesizer {
  command: string;
}

export interface RefineInput {
  lines: string[];
  lang: AlignLanguage;
  synthesizer: Synthesizer | undefined;
  features: Features;
  speech: SpeechAnalysis;
  segments: Segment[];
  onProgress: (fraction: number) => void;
}

export async function refineWithSynthesis(
  _input: RefineInput,
): Promise<{ segments: Segment[]; hintErrors: number[] } | null> {
  return null;
}
