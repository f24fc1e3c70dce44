import { createReadStream } from "node:fs";

/** What a walk over an MP3 file's MPEG audio frames found. */
export interface Mp3Frames {
  /** Layer III frames, each followed by another frame or by the end of the audio. */
  frames: number;
  /** Bytes those frames fill. */
  frameBytes: number;
  /** Bytes between the tags that are audio or junk (the file less its ID3v2 and ID3v1 tags). */
  audioBytes: number;
  /** Seconds of sound the frames hold (their samples over their sample rates). */
  seconds: number;
}

// kbit/s by bitrate index, Layer III: MPEG-1, then MPEG-2 and 2.5 (index 0 "free" and 15 are refused)
const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
// Hz by sample rate index: MPEG-1, MPEG-2, MPEG-2.5
const SAMPLE_RATES = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };
/** The longest Layer III frame (MPEG-2.5 at 160 kbit/s and 8 kHz, padded) and a header. */
const MAX_FRAME = 1441 + 4;

/** The frame whose 4-byte header starts at `at`, or null when there is none. */
function frameAt(buf: Buffer, at: number): { length: number; seconds: number } | null {
  if (buf[at] !== 0xff) return null;
  const b1 = buf[at + 1] ?? 0;
  const b2 = buf[at + 2] ?? 0;
  if ((b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 0b11; // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5, 1: reserved
  if (version === 1 || ((b1 >> 1) & 0b11) !== 0b01) return null; // Layer III only
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 0b11;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const v1 = version === 3;
  const kbps = (v1 ? BITRATES_V1 : BITRATES_V2)[bitrateIndex] ?? 0;
  const rate = SAMPLE_RATES[version as 0 | 2 | 3][rateIndex] ?? 0;
  const padding = (b2 >> 1) & 1;
  const samples = v1 ? 1152 : 576;
  const length = Math.floor(((samples / 8) * kbps * 1000) / rate) + padding;
  return { length, seconds: samples / rate };
}

/** Size of the ID3v2 tag at the start of `head` (its header, footer and syncsafe size), 0 without one. */
function id3v2Size(head: Buffer): number {
  if (head.length < 10 || head.toString("latin1", 0, 3) !== "ID3") return 0;
  const size = ((head[6] ?? 0) << 21) | ((head[7] ?? 0) << 14) | ((head[8] ?? 0) << 7) | (head[9] ?? 0);
  const footer = ((head[5] ?? 0) & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

/**
 * Walks an MP3 file once, from its first byte to its last, in bounded memory: after the ID3v2 tag,
 * a frame is counted when a valid Layer III header is followed by another one exactly where the
 * frame ends (or by the end of the audio); any other byte is skipped as junk. Linear in the size.
 *
 * Hand-written rather than a library's: music-metadata (which reads the duration and tags) estimates
 * the duration from the first frames and the size, so it cannot tell a file of zeros from a long
 * recording; codec-parser walks frames but took 320 s for the 99 MB file of zeros (its sync search
 * slows to microseconds a byte in junk). This is the frame header of ISO 11172-3 and 13818-3, nothing more.
 */
export async function walkMp3Frames(file: string, size: number): Promise<Mp3Frames> {
  let tag = -1;
  let tail = size; // the end of the audio: before an ID3v1 tag, once the last bytes are seen
  let frames = 0;
  let frameBytes = 0;
  let seconds = 0;
  let carry: Buffer = Buffer.alloc(0);
  let offset = 0; // file position of carry[0]
  let skipTo = 0; // file position the walk goes on from

  const walk = (buf: Buffer, last: boolean) => {
    if (last && size >= 128 && buf.length >= 128) {
      const v1 = buf.toString("latin1", buf.length - 128, buf.length - 125) === "TAG";
      if (v1) tail = size - 128;
    }
    let at = Math.max(0, skipTo - offset);
    const end = tail - offset;
    // without the last bytes, stop where a frame and the next header may not be whole yet
    const safe = last ? end : buf.length - MAX_FRAME - 4;
    while (at < safe && at < end) {
      const frame = frameAt(buf, at);
      const next = frame ? at + frame.length : -1;
      if (frame && (next === end || (next + 4 <= buf.length && next < end && frameAt(buf, next)))) {
        frames += 1;
        frameBytes += frame.length;
        seconds += frame.seconds;
        at = next;
      } else if (frame && next > end && last) {
        break; // a frame cut short by the end of the file: not audio, and nothing after it
      } else {
        // junk: on to the next byte that may start a header
        const sync = buf.indexOf(0xff, at + 1);
        at = sync === -1 ? buf.length : sync;
      }
    }
    skipTo = offset + at;
  };

  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    let buf: Buffer = carry.length ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    if (tag === -1) {
      if (buf.length < 10 && offset + buf.length < size) {
        carry = buf;
        continue;
      }
      tag = id3v2Size(buf);
      skipTo = tag;
    }
    const last = offset + buf.length >= size;
    walk(buf, last);
    // keep what the walk has not passed yet, and no more
    const keep = Math.max(0, skipTo - offset);
    carry = keep < buf.length ? buf.subarray(keep) : Buffer.alloc(0);
    offset += Math.min(keep, buf.length);
    buf = carry;
  }
  return { frames, frameBytes, audioBytes: Math.max(0, tail - Math.max(tag, 0)), seconds };
}

/** A file of MPEG audio that fills it: enough frames, little else, as long as its size allows. */
export function plausibleMp3(found: Mp3Frames): boolean {
  // a quarter of a second at least: no lesson is shorter
  if (found.frames < 10) return false;
  // junk besides the frames: a few KB (an APE or Lyrics tag, an encoder's padding), not a tenth
  if (found.audioBytes - found.frameBytes > Math.max(8192, found.audioBytes * 0.1)) return false;
  // what the size allows between the highest bitrate (320 kbit/s) and the lowest (8 kbit/s)
  const bits = found.audioBytes * 8;
  return found.seconds >= (bits / 320_000) * 0.9 && found.seconds <= (bits / 8_000) * 1.1;
}
