import { existsSync } from "node:fs";
import { open, readFile } from "node:fs/promises";
import path from "node:path";
import { constants, inflateRawSync } from "node:zlib";
import { wordKey } from "@parlons/contract";

/**
 * A dictionary in dictd's format, read from its files (no dictd server): `<name>.index` lists
 * each headword with the offset and length of its article (in dictd's base 64), `<name>.dict` holds
 * the articles, or `<name>.dict.dz` holds them compressed by dictzip (gzip in chunks, each
 * inflated alone, so an article is read without inflating the whole file). Debian's freedict
 * packages install such files in /usr/share/dictd.
 */

const DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** A number in dictd's base 64 (most significant digit first, no padding). */
export function dictdNumber(text: string): number {
  let n = 0;
  for (const c of text) {
    const digit = DIGITS.indexOf(c);
    if (digit < 0) throw new Error(`not a dictd number: ${text}`);
    n = n * 64 + digit;
  }
  return n;
}

/** dictd writes headwords lower case and, unless told otherwise, without their punctuation. */
const headwordKey = (word: string) =>
  wordKey(word)
    .replace(/[^\p{L}\p{N}\s]/gu, "")
    .replace(/\s+/g, " ")
    .trim();

/** One article: its first line (headword, pronunciation, part of speech) and its meanings. */
interface DictdArticle {
  head: string;
  meanings: string;
}

function articleOf(text: string): DictdArticle {
  const [head = "", ...rest] = text.trim().split("\n");
  return {
    head: head.trim(),
    meanings: rest
      .map((l) => l.trim())
      .filter(Boolean)
      .join("\n"),
  };
}

/** Where the chunks of a dictzip file start, and their uncompressed length. */
interface Dictzip {
  chunkLength: number;
  offsets: number[];
}

/** Reads the gzip header of a dictzip file: its "RA" extra field lists each chunk's compressed size. */
function dictzipHeader(head: Buffer): Dictzip {
  if (head[0] !== 0x1f || head[1] !== 0x8b) throw new Error("not a gzip file");
  const flags = head[3] ?? 0;
  if (!(flags & 4)) throw new Error("gzip file without dictzip's extra field");
  const extraLength = head.readUInt16LE(10);
  let at = 12;
  const end = 12 + extraLength;
  let chunkLength = 0;
  let sizes: number[] = [];
  while (at + 4 <= end) {
    const id = head.toString("latin1", at, at + 2);
    const length = head.readUInt16LE(at + 2);
    if (id === "RA") {
      chunkLength = head.readUInt16LE(at + 6);
      const chunkCount = head.readUInt16LE(at + 8);
      sizes = Array.from({ length: chunkCount }, (_, i) => head.readUInt16LE(at + 10 + 2 * i));
    }
    at += 4 + length;
  }
  if (!chunkLength) throw new Error("gzip file without dictzip's chunk table");
  at = end;
  if (flags & 8) at = head.indexOf(0, at) + 1; // file name
  if (flags & 16) at = head.indexOf(0, at) + 1; // comment
  if (flags & 2) at += 2; // header CRC
  const offsets = [at];
  for (const size of sizes) offsets.push((offsets.at(-1) as number) + size);
  return { chunkLength, offsets };
}

export interface DictdDictionary {
  /** The files' name (e.g. freedict-fra-eng). */
  name: string;
  /** The articles of a word (none when it is not a headword). */
  lookup(word: string): Promise<DictdArticle[]>;
}

/** The dictionary `name` in `dir`, or null when its files are not there. Files are read at the first lookup. */
export function dictdDictionary(dir: string, name: string): DictdDictionary | null {
  const indexFile = path.join(dir, `${name}.index`);
  const plain = path.join(dir, `${name}.dict`);
  const compressed = `${plain}.dz`;
  if (!existsSync(indexFile) || !(existsSync(plain) || existsSync(compressed))) return null;
  let index: Promise<Map<string, [number, number][]>> | undefined;
  let zip: Promise<Dictzip> | undefined;

  async function readIndex() {
    const entries = new Map<string, [number, number][]>();
    for (const line of (await readFile(indexFile, "utf8")).split("\n")) {
      const [headword, offset, length] = line.split("\t");
      if (!headword || !offset || !length || headword.startsWith("00database")) continue;
      const key = headwordKey(headword);
      const list = entries.get(key) ?? [];
      list.push([dictdNumber(offset), dictdNumber(length)]);
      entries.set(key, list);
    }
    return entries;
  }

  async function readPlain(offset: number, length: number): Promise<string> {
    const file = await open(plain, "r");
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, offset);
      return buffer.toString("utf8", 0, bytesRead);
    } finally {
      await file.close();
    }
  }

  async function readCompressed(offset: number, length: number): Promise<string> {
    const file = await open(compressed, "r");
    try {
      zip ??= (async () => {
        const head = Buffer.alloc(65_536 + 64);
        const { bytesRead } = await file.read(head, 0, head.length, 0);
        return dictzipHeader(head.subarray(0, bytesRead));
      })();
      const { chunkLength, offsets } = await zip;
      const first = Math.floor(offset / chunkLength);
      const last = Math.min(Math.floor((offset + length - 1) / chunkLength), offsets.length - 2);
      const parts: Buffer[] = [];
      for (let chunk = first; chunk <= last; chunk++) {
        const from = offsets[chunk] as number;
        const size = (offsets[chunk + 1] as number) - from;
        const raw = Buffer.alloc(size);
        await file.read(raw, 0, size, from);
        parts.push(inflateRawSync(raw, { finishFlush: constants.Z_SYNC_FLUSH }));
      }
      const start = offset - first * chunkLength;
      return Buffer.concat(parts).toString("utf8", start, start + length);
    } finally {
      await file.close();
    }
  }

  return {
    name,
    async lookup(word) {
      index ??= readIndex();
      const places = (await index).get(headwordKey(word)) ?? [];
      const read = existsSync(compressed) ? readCompressed : readPlain;
      const articles: DictdArticle[] = [];
      for (const [offset, length] of places.slice(0, 5)) articles.push(articleOf(await read(offset, length)));
      return articles;
    },
  };
}

/** ISO 639-1 codes of the languages taught, as freedict names them (ISO 639-3). */
const FREEDICT_CODES: Record<string, string> = {
  en: "eng",
  fr: "fra",
  es: "spa",
  de: "deu",
  it: "ita",
  pt: "por",
  nl: "nld",
  ar: "ara",
  zh: "zho",
  ja: "jpn",
  ru: "rus",
};

/** The dictionaries of a directory, by the pair of languages they translate between. */
export function dictdShelf(dir: string | undefined) {
  const found = new Map<string, DictdDictionary | null>();
  return {
    /** The freedict dictionary from `from` to `to` (ISO 639-1), when installed. */
    between(from: string, to: string): DictdDictionary | null {
      if (!dir || from === to) return null;
      const a = FREEDICT_CODES[from];
      const b = FREEDICT_CODES[to];
      if (!a || !b) return null;
      const name = `freedict-${a}-${b}`;
      if (!found.has(name)) found.set(name, dictdDictionary(dir, name));
      return found.get(name) ?? null;
    },
  };
}
export type DictdShelf = ReturnType<typeof dictdShelf>;
