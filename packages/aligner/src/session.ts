/**
 * One audio file made of pieces: stretches cut from lessons' audio, silences, and short texts
 * spoken by espeak-ng (a separate process, never linked; where it is missing the caller asks for
 * no speech). Everything is decoded to mono 16 kHz (decode.ts), laid end to end and encoded to a
 * constant-bitrate MP3 (lamejs, pure JavaScript): 16 kHz mono at 32 kbit/s, 4 KB per second.
 * The hands-free daily session is rendered this way (the API runs it in a worker thread).
 */
import { Mp3Encoder } from "@breezystack/lamejs";
import { ANALYSIS_RATE, decodeAudio } from "./decode.js";
import { espeakWav } from "./espeak.js";

export type SpeechLanguage = "fr" | "en" | "es";

export type SessionPiece =
  /** seconds [start, end) of source `source` */
  | { type: "cut"; source: number; start: number; end: number }
  | { type: "silence"; seconds: number }
  | { type: "speech"; text: string; language: SpeechLanguage };

export interface SessionJob {
  /** the audio files the cuts come from (MP3, WAV, Ogg Vorbis or FLAC) */
  sources: Uint8Array[];
  pieces: SessionPiece[];
  /** the espeak-ng executable; speech pieces need it */
  speaker?: string;
}

export interface SessionResult {
  mp3: Uint8Array;
  /** length of the audio, in seconds */
  seconds: number;
}

export class SessionRenderError extends Error {
  constructor(
    readonly code: "SPEECH_FAILED" | "RENDER_FAILED",
    message: string,
  ) {
    super(message);
  }
}

export const SESSION_RATE = ANALYSIS_RATE;
export const SESSION_KBPS = 32;
const VOICES: Record<SpeechLanguage, string> = { fr: "fr", en: "en-us", es: "es" };
/** fades at the edges of each cut and spoken text, so that no cut clicks */
const FADE = Math.round(0.01 * SESSION_RATE);
/** spoken texts are brought to this peak (the lessons' audio is left as it is) */
const SPEECH_PEAK = 0.6;

/** The samples from the first to the last that is not near silence, at SPEECH_PEAK. */
function trimmedSpeech(samples: Float32Array): Float32Array {
  let peak = 0;
  for (const s of samples) peak = Math.max(peak, Math.abs(s));
  if (peak === 0) return new Float32Array(0);
  const floor = peak * 0.01;
  let first = 0;
  while (first < samples.length && Math.abs(samples[first] as number) < floor) first++;
  let last = samples.length;
  while (last > first && Math.abs(samples[last - 1] as number) < floor) last--;
  const out = samples.slice(first, last);
  const gain = SPEECH_PEAK / peak;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) * gain;
  return out;
}

function fade(samples: Float32Array): Float32Array {
  const n = Math.min(FADE, Math.floor(samples.length / 2));
  for (let i = 0; i < n; i++) {
    const g = i / n;
    samples[i] = (samples[i] as number) * g;
    samples[samples.length - 1 - i] = (samples[samples.length - 1 - i] as number) * g;
  }
  return samples;
}

const at = (seconds: number) => Math.max(0, Math.round(seconds * SESSION_RATE));

/** Mono 16 kHz samples as a CBR MP3 (32 kbit/s). */
export function encodeMp3(samples: Float32Array): Uint8Array {
  const encoder = new Mp3Encoder(1, SESSION_RATE, SESSION_KBPS);
  const parts: Uint8Array[] = [];
  const block = 576 * 20;
  const pcm = new Int16Array(block);
  for (let from = 0; from < samples.length; from += block) {
    const n = Math.min(block, samples.length - from);
    for (let i = 0; i < n; i++) {
      const s = samples[from + i] as number;
      pcm[i] = Math.max(-32768, Math.min(32767, Math.round(s * 32767)));
    }
    parts.push(encoder.encodeBuffer(n === block ? pcm : pcm.subarray(0, n)).slice());
  }
  parts.push(encoder.flush().slice());
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/**
 * Renders the pieces in their order. Each source is decoded once, and only its cuts are kept
 * (a lesson's whole audio never stays in memory longer than its own decoding). A spoken text
 * that espeak-ng cannot read fails the render (SPEECH_FAILED): the caller may render again
 * without speech.
 */
export async function renderSession(
  job: SessionJob,
  onProgress?: (fraction: number) => void,
): Promise<SessionResult> {
  const clips: (Float32Array | null)[] = job.pieces.map(() => null);
  const steps = job.sources.length + job.pieces.filter((p) => p.type === "speech").length;
  let done = 0;
  const step = () => onProgress?.(Math.min(0.95, ++done / Math.max(1, steps)));
  for (const [index, bytes] of job.sources.entries()) {
    const { samples } = await decodeAudio(bytes);
    for (const [i, piece] of job.pieces.entries()) {
      if (piece.type !== "cut" || piece.source !== index) continue;
      clips[i] = fade(samples.slice(at(piece.start), Math.min(samples.length, at(piece.end))));
    }
    step();
  }
  for (const [i, piece] of job.pieces.entries()) {
    if (piece.type === "cut" && !clips[i])
      throw new SessionRenderError("RENDER_FAILED", `no source ${piece.source}`);
    if (piece.type !== "speech") continue;
    if (!job.speaker) throw new SessionRenderError("SPEECH_FAILED", "no speech synthesizer");
    try {
      const wav = await espeakWav(job.speaker, ["-v", VOICES[piece.language]], piece.text);
      clips[i] = fade(trimmedSpeech((await decodeAudio(wav)).samples));
    } catch (err) {
      throw new SessionRenderError("SPEECH_FAILED", `espeak-ng could not read a prompt: ${String(err)}`);
    }
    step();
  }
  const lengths = job.pieces.map((p, i) => (p.type === "silence" ? at(p.seconds) : (clips[i]?.length ?? 0)));
  const all = new Float32Array(lengths.reduce((sum, n) => sum + n, 0));
  let offset = 0;
  for (const [i, n] of lengths.entries()) {
    const clip = clips[i];
    if (clip) all.set(clip, offset);
    offset += n;
  }
  const mp3 = encodeMp3(all);
  onProgress?.(1);
  return { mp3, seconds: all.length / SESSION_RATE };
}
