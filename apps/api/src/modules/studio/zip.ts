import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { COURSE_IMPORT_LIMITS, MAX_UPLOAD_BYTES } from "@parlons/contract";
import yauzl from "yauzl";
import { PRIVATE_FILE_MODE } from "../../lib/private-files";

/** A file taken from a drop: its name (without folders) and its bytes in a temp file. */
export interface DroppedFile {
  name: string;
  tempFile: string;
  size: number;
}

/** Why a zip was refused whole: said to the person who dropped it. */
export class ZipRefused extends Error {}

const MB = 1024 * 1024;

/** Counts the bytes that really come out of an entry, against what it declared and the drop's budget. */
function counter(limit: number, onByte: (n: number) => void) {
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length;
      onByte(chunk.length);
      if (size > limit) return callback(new ZipRefused("an entry unpacks to more than it declared"));
      callback(null, chunk);
    },
  });
}

const refusedName = (name: string) =>
  name.startsWith("/") || /^[a-z]:/i.test(name) || name.includes("\\") || name.split("/").includes("..");

/**
 * Unpacks a zip (yauzl) into temp files, refusing it whole, before or while unpacking, when an
 * entry's path leaves the archive (`../`, absolute, backslashes), when it holds too many entries,
 * when an entry declares more than an upload may be or unpacks to more than it declared, when an
 * entry over 1 MB packs more than `zipRatio` to one, or when everything together passes the drop's
 * budget (`budget.left` bytes, shared with the other files of the request). Folders and macOS
 * metadata are skipped; files keep their base names.
 */
export async function unzip(file: string, tempDir: string, budget: { left: number }): Promise<DroppedFile[]> {
  const out: DroppedFile[] = [];
  let zip: yauzl.ZipFile;
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      // names are checked below (decodeStrings would stop at the first bad one with yauzl's own words)
      yauzl.open(
        file,
        { lazyEntries: true, validateEntrySizes: true, decodeStrings: true, strictFileNames: false },
        (err, z) => (err || !z ? reject(err) : resolve(z)),
      ),
    );
  } catch (err) {
    throw new ZipRefused(reasonOf(err));
  }
  try {
    if (zip.entryCount > COURSE_IMPORT_LIMITS.zipEntries)
      throw new ZipRefused(`it holds ${zip.entryCount} entries (at most ${COURSE_IMPORT_LIMITS.zipEntries})`);
    await new Promise<void>((resolve, reject) => {
      zip.on("error", (err) => reject(new ZipRefused(reasonOf(err))));
      zip.on("end", () => resolve());
      zip.on("entry", (entry: yauzl.Entry) => {
        take(entry).then(
          () => zip.readEntry(),
          (err) => reject(err instanceof ZipRefused ? err : new ZipRefused(reasonOf(err))),
        );
      });
      zip.readEntry();
    });
    return out;
  } catch (err) {
    await Promise.all(out.map((f) => rm(f.tempFile, { force: true })));
    throw err;
  } finally {
    zip.close();
  }

  async function take(entry: yauzl.Entry) {
    const name = entry.fileName;
    if (refusedName(name)) throw new ZipRefused(`the entry "${name}" points outside the archive`);
    const base = path.posix.basename(name);
    if (name.endsWith("/") || name.startsWith("__MACOSX/") || base.startsWith(".")) return;
    const declared = entry.uncompressedSize;
    if (declared >= MAX_UPLOAD_BYTES) throw new ZipRefused(`"${name}" is larger than an upload may be`);
    if (declared > MB && declared / Math.max(1, entry.compressedSize) > COURSE_IMPORT_LIMITS.zipRatio)
      throw new ZipRefused(
        `"${name}" unpacks to over ${COURSE_IMPORT_LIMITS.zipRatio} times its packed size`,
      );
    if (declared > budget.left) throw new ZipRefused("it unpacks to more than a drop may hold");
    if (out.some((f) => f.name === base)) throw new ZipRefused(`two entries are named "${base}"`);
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      zip.openReadStream(entry, (err, s) => (err || !s ? reject(err) : resolve(s))),
    );
    const tempFile = path.join(tempDir, randomUUID());
    out.push({ name: base, tempFile, size: declared });
    await pipeline(
      stream,
      counter(declared, (n) => {
        budget.left -= n;
      }),
      createWriteStream(tempFile, { mode: PRIVATE_FILE_MODE }),
    );
  }
}

function reasonOf(err: unknown): string {
  const message = (err as Error | undefined)?.message ?? "unreadable";
  if (/invalid relative path|absolute path|invalid characters/i.test(message))
    return "an entry points outside the archive";
  if (/too many|expected .* bytes|uncompressed size/i.test(message))
    return "an entry unpacks to another size than it declared";
  return `it is not a readable zip (${message})`;
}
