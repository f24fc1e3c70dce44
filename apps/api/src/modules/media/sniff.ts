import type { MediaType } from "@parlons/contract";

export interface SniffedType {
  type: MediaType;
  mime: string;
  ext: string;
}

/** Bytes needed to decide. */
export const SNIFF_BYTES = 12;

function isMpegFrame(b: Buffer): boolean {
  if (b.length < 3 || b[0] !== 0xff) return false;
  const b1 = b[1] as number;
  const b2 = b[2] as number;
  const syncOk = (b1 & 0xe0) === 0xe0;
  const version = (b1 >> 3) & 0x03; // 01 is reserved
  const layer = (b1 >> 1) & 0x03; // 00 is reserved (and what AAC's ADTS uses)
  const bitrate = b2 >> 4; // 1111 is invalid
  const sampleRate = (b2 >> 2) & 0x03; // 11 is reserved
  return syncOk && version !== 1 && layer !== 0 && bitrate !== 0x0f && sampleRate !== 3;
}

/**
 * What the file really is, from its first bytes (the name and the client's content
 * type are not trusted). MP3: an ID3v2 tag or an MPEG audio frame header. Images for
 * covers: PNG, JPEG, WebP. SVG is refused (it can carry scripts).
 */
export function sniff(head: Buffer): SniffedType | null {
  if (head.length >= 4 && head.subarray(0, 3).toString("latin1") === "ID3" && (head[3] as number) <= 4) {
    return { type: "audio", mime: "audio/mpeg", ext: "mp3" };
  }
  if (isMpegFrame(head)) return { type: "audio", mime: "audio/mpeg", ext: "mp3" };
  if (
    head.length >= 8 &&
    head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return { type: "image", mime: "image/png", ext: "png" };
  }
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) {
    return { type: "image", mime: "image/jpeg", ext: "jpg" };
  }
  if (
    head.length >= 12 &&
    head.subarray(0, 4).toString("latin1") === "RIFF" &&
    head.subarray(8, 12).toString("latin1") === "WEBP"
  ) {
    return { type: "image", mime: "image/webp", ext: "webp" };
  }
  return null;
}

const IMAGE_MIME: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  webp: "image/webp",
  svg: "image/svg+xml",
};

/** Content type of a stored image from its (server-made) extension. */
export function imageMimeOf(name: string): string | null {
  const ext = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  return IMAGE_MIME[ext] ?? null;
}
