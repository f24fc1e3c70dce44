/**
 * Synthesis mode: where espeak-ng is installed, it reads the script aloud, and that reading serves
 * as an acoustic reference (the approach of echogarden's DTW aligner).
 *
 * 1. One espeak-ng process (never linked: spawned, text on stdin as SSML) reads every line with a
 *    long break between lines; the output is cut at those breaks into one clip per line.
 * 2. Each line's expected length becomes the reference's, from its first sound to its last (far
 *    closer to how long a reader takes than a syllable count: it knows the language's phonemes and
 *    its commas), and the lines are assigned to pauses as in signal mode (a cue's time from start
 *    to end, the speaking rate chosen over a grid with a prior from the two readings' syllable
 *    times).
 * 3. The whole reference, its breaks left out, is matched to the whole recording by banded DTW
 *    (dtw.ts) around that first assignment; where each of the reference's line junctions lands is
 *    a hint (and a candidate boundary where the recording has no pause there), and the assignment
 *    is computed a last time with a cost for boundaries far from their hints. A line whose hints
 *    disagree with its pauses loses confidence.
 * If espeak-ng is missing, fails, or its output cannot be cut into the script's lines, the result
 * of signal mode stands (and says so).
 */
import { spawnSync } from "node:child_process";
import { decodeAudio } from "./decode.js";
import { globalHints } from "./dtw.js";
import { espeakWav } from "./espeak.js";
import { computeFeatures, type Features } from "./features.js";
import { type AlignLanguage, innerPauseCount } from "./script.js";
import { type Segment, segmentLines } from "./segment.js";
import { analyseSpeech, type Pause, type SpeechAnalysis, syllableTime } from "./speech.js";

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
  return espeakWav(synthesizer.command, ["-v", VOICES[lang], "-m"], ssml);
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
  // each line's expected length is the reference's, from its first sound to its last (its commas'
  // pauses included), compared with a cue's time from start to end as in signal mode: noise lowers
  // a recording's speech presence, not its time
  const weights = ranges.map(([a, b]) => Math.max(5, b - a));
  const innerPauses = input.lines.map(innerPauseCount);
  const { presence, pauses, music } = input.speech;
  // a prior on the rate: the recording's syllable time over the reference's
  const recordingSyllable = syllableTime(input.speech);
  const referenceSyllable = syllableTime(refSpeech);
  const ratePrior =
    recordingSyllable !== null && referenceSyllable !== null
      ? recordingSyllable / referenceSyllable
      : undefined;
  const first = segmentLines({ presence, pauses, weights, innerPauses, measure: "time", ratePrior, music });
  const rate = first.reduce((a, s) => a + s.end - s.start, 0) / weights.reduce((a, w) => a + w, 0);
  input.onProgress(0.6);
  const hints = globalHints(input.features, reference, ranges, first);
  input.onProgress(0.9);
  const segments = segmentLines({
    presence,
    pauses: withHintBoundaries(pauses, hints),
    weights,
    innerPauses,
    hints,
    rate,
    measure: "time",
    music,
  });
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

/** a hint with no pause within this many frames becomes a boundary candidate of its own */
const HINT_ALONE = 5;
/** as strong as the deepest dip between two words (speech.ts) */
const HINT_STRENGTH = 0.2;

/**
 * Lines read without a pause between them (a 20 ms junction, sped-up reading) may leave no pause,
 * not even a dip, where one line ends and the next begins; where the reference voice's junction
 * lands is then the only evidence, and it becomes a candidate boundary.
 */
function withHintBoundaries(pauses: Pause[], hints: (number | null)[]): Pause[] {
  const added: Pause[] = [];
  for (const h of hints) {
    if (h === null) continue;
    if (pauses.some((p) => p.start - HINT_ALONE <= h && h <= p.end + HINT_ALONE)) continue;
    added.push({ start: h, end: h + 1, strength: HINT_STRENGTH });
  }
  return added.length === 0 ? pauses : [...pauses, ...added].sort((a, b) => a.start - b.start);
}
