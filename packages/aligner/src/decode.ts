/**
 * Audio bytes → mono Float32 samples at the analysis rate (16 kHz), with WASM decoders from npm
 * (no ffmpeg). The file is fed to the decoder in chunks and each chunk is mixed down and
 * resampled at once, so a 10-minute lesson never exists as 44.1 kHz stereo floats in memory
 * (that alone would be 212 MB): what stays is the 16 kHz mono result (38 MB for 10 minutes).
 */
import { FLACDecoder } from "@wasm-audio-decoders/flac";
import { OggVorbisDecoder } from "@wasm-audio-decoders/ogg-vorbis";
import { MPEGDecoder } from "mpg123-decoder";

export const ANALYSIS_RATE = 16_000;

export type AudioFormat = "mp3" | "wav" | "ogg" | "flac";

export class AudioDecodeError extends Error {
  constructor(
    readonly code: "AUDIO_UNSUPPORTED" | "AUDIO_CORRUPT" | "AUDIO_EMPTY",
    message: string,
  ) {
    super(message);
  }
}

export interface DecodedAudio {
  /** mono samples at ANALYSIS_RATE */
  samples: Float32Array;
  sampleRate: number;
  /** duration in seconds */
  duration: number;
  format: AudioFormat;
}

const ascii = (bytes: Uint8Array, from: number, length: number) =>
  String.fromCharCode(...bytes.subarray(from, from + length));

/** Sniffs the container from its first bytes (never from a file name). */
export function sniffFormat(bytes: Uint8Array): AudioFormat | null {
  if (bytes.length < 12) return null;
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 4) === "WAVE") return "wav";
  if (ascii(bytes, 0, 4) === "fLaC") return "flac";
  if (ascii(bytes, 0, 4) === "OggS") {
    // the first page carries the codec's identification header
    const head = ascii(bytes, 0, Math.min(bytes.length, 120));
    return head.includes("vorbis") ? "ogg" : null;
  }
  if (ascii(bytes, 0, 3) === "ID3") return "mp3";
  // an MPEG audio frame sync (11 set bits) with layer III, II or I
  const b0 = bytes[0] ?? 0;
  const b1 = bytes[1] ?? 0;
  if (b0 === 0xff && (b1 & 0xe0) === 0xe0 && (b1 & 0x06) !== 0) return "mp3";
  return null;
}

/** fractional positions for which the resampling filter is tabulated */
const PHASES = 64;

/**
 * Mixes channels down and resamples to ANALYSIS_RATE, chunk by chunk. The resampler is a
 * windowed-sinc low-pass (cut at the lower Nyquist) evaluated at each output instant, with the
 * input kept only as long as the filter needs it.
 */
class MonoResampler {
  private readonly step: number;
  /** taps on each side of the output instant, in input samples */
  private readonly reach: number;
  /** filter weights for PHASES fractional positions, each normalised to a sum of 1 */
  private readonly table: Float32Array;
  private tail = new Float32Array(0);
  /** input index (relative to this.tail[0]) of the next output sample */
  private position = 0;
  private readonly parts: Float32Array[] = [];
  private length = 0;

  constructor(readonly inputRate: number) {
    this.step = inputRate / ANALYSIS_RATE;
    const cutoff = Math.min(1, ANALYSIS_RATE / inputRate) * 0.95;
    this.reach = Math.ceil(4 / cutoff);
    const taps = 2 * this.reach;
    this.table = new Float32Array(PHASES * taps);
    for (let ph = 0; ph < PHASES; ph++) {
      const frac = ph / PHASES;
      let sum = 0;
      for (let t = 0; t < taps; t++) {
        const d = t - this.reach + 1 - frac; // k - p
        const x = d * cutoff;
        const w = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
        const win = 0.5 + 0.5 * Math.cos((Math.PI * d) / (this.reach + 1));
        this.table[ph * taps + t] = w * win;
        sum += w * win;
      }
      for (let t = 0; t < taps; t++) this.table[ph * taps + t] = (this.table[ph * taps + t] ?? 0) / sum;
    }
  }

  push(channels: Float32Array[], count: number) {
    if (count === 0 || channels.length === 0) return;
    const mono = new Float32Array(this.tail.length + count);
    mono.set(this.tail);
    const scale = 1 / channels.length;
    const offset = this.tail.length;
    for (const channel of channels) {
      for (let i = 0; i < count; i++)
        mono[offset + i] = (mono[offset + i] as number) + (channel[i] ?? 0) * scale;
    }
    this.consume(mono, false);
  }

  private consume(input: Float32Array, final: boolean) {
    const reach = this.reach;
    const taps = 2 * reach;
    const limit = final ? input.length : input.length - reach;
    const out = new Float32Array(Math.max(0, Math.ceil((limit - this.position) / this.step)));
    let n = 0;
    let p = this.position;
    const table = this.table;
    for (; p < limit && n < out.length; p += this.step) {
      const centre = Math.floor(p);
      const row = Math.min(PHASES - 1, Math.round((p - centre) * PHASES)) * taps;
      const first = centre - reach + 1;
      let sum = 0;
      if (first >= 0 && first + taps <= input.length) {
        for (let t = 0; t < taps; t++) sum += (input[first + t] as number) * (table[row + t] as number);
      } else {
        for (let t = 0; t < taps; t++) {
          const k = first + t;
          if (k >= 0 && k < input.length) sum += (input[k] as number) * (table[row + t] as number);
        }
      }
      out[n++] = sum;
    }
    if (n) {
      this.parts.push(n === out.length ? out : out.slice(0, n));
      this.length += n;
    }
    // keep what the next outputs still need
    const keepFrom = Math.max(0, Math.floor(p) - reach);
    this.tail = input.slice(keepFrom);
    this.position = p - keepFrom;
  }

  finish(): Float32Array {
    this.consume(this.tail, true);
    const all = new Float32Array(this.length);
    let at = 0;
    for (const part of this.parts) {
      all.set(part, at);
      at += part.length;
    }
    this.parts.length = 0;
    return all;
  }
}

const CHUNK = 64 * 1024;

interface ChunkDecoder {
  ready: Promise<void>;
  decode(
    bytes: Uint8Array,
  ):
    | { channelData: Float32Array[]; samplesDecoded: number; sampleRate: number }
    | Promise<{ channelData: Float32Array[]; samplesDecoded: number; sampleRate: number }>;
  flush?(): Promise<{ channelData: Float32Array[]; samplesDecoded: number; sampleRate: number }>;
  free(): void;
}

async function decodeWithWasm(bytes: Uint8Array, decoder: ChunkDecoder): Promise<Float32Array> {
  await decoder.ready;
  let resampler: MonoResampler | undefined;
  const take = (out: { channelData: Float32Array[]; samplesDecoded: number; sampleRate: number }) => {
    if (!out.samplesDecoded) return;
    resampler ??= new MonoResampler(out.sampleRate);
    resampler.push(out.channelData, out.samplesDecoded);
  };
  try {
    for (let at = 0; at < bytes.length; at += CHUNK) {
      take(await decoder.decode(bytes.subarray(at, at + CHUNK)));
    }
    if (decoder.flush) take(await decoder.flush());
  } finally {
    decoder.free();
  }
  if (!resampler) throw new AudioDecodeError("AUDIO_CORRUPT", "no audio could be decoded");
  return resampler.finish();
}

function decodeWav(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 12;
  let format = 0;
  let channels = 0;
  let rate = 0;
  let bits = 0;
  while (at + 8 <= bytes.length) {
    const id = ascii(bytes, at, 4);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === "fmt ") {
      format = view.getUint16(body, true);
      channels = view.getUint16(body + 2, true);
      rate = view.getUint32(body + 4, true);
      bits = view.getUint16(body + 14, true);
      // WAVE_FORMAT_EXTENSIBLE: the real format is the sub-format GUID's first two bytes
      if (format === 0xfffe && size >= 26) format = view.getUint16(body + 24, true);
    } else if (id === "data") {
      if (!channels || !rate) throw new AudioDecodeError("AUDIO_CORRUPT", "WAV data before its format");
      const width = bits / 8;
      const frameBytes = width * channels;
      const end = Math.min(bytes.length, body + size);
      const frames = Math.floor((end - body) / frameBytes);
      const read =
        format === 3 && bits === 32
          ? (o: number) => view.getFloat32(o, true)
          : format === 1 && bits === 16
            ? (o: number) => view.getInt16(o, true) / 32768
            : format === 1 && bits === 8
              ? (o: number) => ((bytes[o] ?? 128) - 128) / 128
              : format === 1 && bits === 24
                ? (o: number) => ((view.getUint8(o + 2) << 24) | (view.getUint16(o, true) << 8)) / 2147483648
                : format === 1 && bits === 32
                  ? (o: number) => view.getInt32(o, true) / 2147483648
                  : null;
      if (!read) throw new AudioDecodeError("AUDIO_UNSUPPORTED", `WAV format ${format}/${bits} bits`);
      const resampler = new MonoResampler(rate);
      const block = 65_536;
      for (let f = 0; f < frames; f += block) {
        const n = Math.min(block, frames - f);
        const chans = Array.from({ length: channels }, () => new Float32Array(n));
        for (let i = 0; i < n; i++) {
          const o = body + (f + i) * frameBytes;
          for (let c = 0; c < channels; c++) (chans[c] as Float32Array)[i] = read(o + c * width);
        }
        resampler.push(chans, n);
      }
      return resampler.finish();
    }
    at = body + size + (size & 1);
  }
  throw new AudioDecodeError("AUDIO_CORRUPT", "WAV without a data chunk");
}

/** Decodes MP3, WAV (PCM 8/16/24/32, float), Ogg Vorbis or FLAC to mono 16 kHz. */
export async function decodeAudio(bytes: Uint8Array): Promise<DecodedAudio> {
  const format = sniffFormat(bytes);
  if (!format) throw new AudioDecodeError("AUDIO_UNSUPPORTED", "not MP3, WAV, Ogg Vorbis or FLAC audio");
  let samples: Float32Array;
  try {
    if (format === "wav") samples = decodeWav(bytes);
    else if (format === "mp3") samples = await decodeWithWasm(bytes, new MPEGDecoder());
    else if (format === "ogg") samples = await decodeWithWasm(bytes, new OggVorbisDecoder());
    else samples = await decodeWithWasm(bytes, new FLACDecoder());
  } catch (err) {
    if (err instanceof AudioDecodeError) throw err;
    throw new AudioDecodeError("AUDIO_CORRUPT", `could not decode the ${format} audio: ${String(err)}`);
  }
  if (samples.length < ANALYSIS_RATE / 10)
    throw new AudioDecodeError("AUDIO_EMPTY", "less than 0.1 s of audio");
  return { samples, sampleRate: ANALYSIS_RATE, duration: samples.length / ANALYSIS_RATE, format };
}
