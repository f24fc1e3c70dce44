import type { MediaType } from "@parlons/contract";

export interface SniffedType {
  type: MediaType;
  mime: string;
  ext: string;
}

/** Bytes read before deciding: file-type's own detection size (enough for most formats). */
export const SNIFF_BYTES = 4100;

/** What uploads may be, by the type file-type finds (any other type is refused). */
const ACCEPTED: Record<string, SniffedType> = {
  "audio/mpeg": { type: "audio", mime: "audio/mpeg", ext: "mp3" },
  "image/png": { type: "image", mime: "image/png", ext: "png" },
  "image/jpeg": { type: "image", mime: "image/jpeg", ext: "jpg" },
  "image/webp": { type: "image", mime: "image/webp", ext: "webp" },
};

/**
 * What the file really is, from its first bytes (the name and the client's content type are
 * not trusted), found by `file-type`: MP3 (an MPEG layer III stream, after any ID3v2 tag), or a
 * PNG, JPEG or WebP image for covers. Everything else is refused, SVG first (it can carry scripts).
 */
export async function sniff(head: Uint8Array): Promise<SniffedType | null> {
  // file-type is imported on the first upload, not at start-up
  const { fileTypeFromBuffer } = await import("file-type");
  const found = await fileTypeFromBuffer(head);
  return (found && ACCEPTED[found.mime]) ?? null;
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
