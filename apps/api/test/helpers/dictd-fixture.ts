import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { constants, crc32, deflateRawSync } from "node:zlib";

const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** A number in dictd's base 64, as dictfmt writes it in an index. */
function dictdDigits(n: number): string {
  let text = "";
  do {
    text = DIGITS[n % 64] + text;
    n = Math.floor(n / 64);
  } while (n > 0);
  return text;
}

/**
 * A dictzip file as dictzip writes it: gzip whose "RA" extra field lists the compressed size of
 * each chunk of `chunkLength` bytes, every chunk deflated so that it inflates alone (a full flush
 * between chunks). Small chunks make an article span several.
 */
export function dictzip(data: Buffer, chunkLength = 64): Buffer {
  const chunks: Buffer[] = [];
  for (let at = 0; at < data.length; at += chunkLength) {
    const last = at + chunkLength >= data.length;
    chunks.push(
      deflateRawSync(data.subarray(at, at + chunkLength), {
        finishFlush: last ? constants.Z_FINISH : constants.Z_FULL_FLUSH,
      }),
    );
  }
  const ra = Buffer.alloc(10 + 2 * chunks.length);
  ra.write("RA", 0, "latin1");
  ra.writeUInt16LE(6 + 2 * chunks.length, 2);
  ra.writeUInt16LE(1, 4);
  ra.writeUInt16LE(chunkLength, 6);
  ra.writeUInt16LE(chunks.length, 8);
  chunks.forEach((c, i) => {
    ra.writeUInt16LE(c.length, 10 + 2 * i);
  });
  const head = Buffer.from([0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 2, 3, 0, 0]);
  head.writeUInt16LE(ra.length, 10);
  const tail = Buffer.alloc(8);
  tail.writeUInt32LE(crc32(data), 0);
  tail.writeUInt32LE(data.length % 2 ** 32, 4);
  return Buffer.concat([head, ra, ...chunks, tail]);
}

/**
 * Writes a small dictionary in dictd's format (an index, and its articles both plain and
 * dictzipped) in a new directory, named as a freedict package names its files.
 */
export function writeDictd(
  name: string,
  articles: Record<string, string>,
  opts: { compressed?: boolean } = {},
) {
  const dir = mkdtempSync(path.join(tmpdir(), "parlons-dictd-"));
  const index: string[] = [];
  const parts: Buffer[] = [];
  let offset = 0;
  for (const [headword, text] of Object.entries(articles)) {
    const bytes = Buffer.from(`${headword} ${text}\n`);
    index.push(`${headword}\t${dictdDigits(offset)}\t${dictdDigits(bytes.length)}`);
    parts.push(bytes);
    offset += bytes.length;
  }
  const data = Buffer.concat(parts);
  writeFileSync(path.join(dir, `${name}.index`), `${index.sort().join("\n")}\n`);
  if (opts.compressed === false) writeFileSync(path.join(dir, `${name}.dict`), data);
  else writeFileSync(path.join(dir, `${name}.dict.dz`), dictzip(data));
  return { dir, data };
}
