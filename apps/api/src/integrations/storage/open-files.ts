import { close, open, read } from "node:fs";
import { Readable } from "node:stream";

interface OpenFile {
  fd: Promise<number>;
  /** Streams reading it now. */
  users: number;
  /** Taken out of the table: closed once the last stream lets go. */
  retired: boolean;
  lastUsed: number;
}

/**
 * File descriptors kept open between requests. A player reads a lesson as a series of Range
 * requests; opening and closing the file for each one cost more than the read itself (two
 * thread-pool trips each). Reads are positional (pread), so streams share a descriptor. A file
 * idle for `idleMs` is closed; so is one whose key is written or deleted (`retire`), once the
 * streams still reading it are done (they finish on the old inode, as they would have anyway).
 */
export function createOpenFiles(opts: { idleMs: number; max: number }) {
  const table = new Map<string, OpenFile>();

  function closeWhenUnused(entry: OpenFile) {
    if (entry.users > 0) return;
    entry.fd.then(
      (fd) => close(fd, () => {}),
      () => {},
    );
  }

  function retire(file: string) {
    const entry = table.get(file);
    if (!entry) return;
    table.delete(file);
    entry.retired = true;
    closeWhenUnused(entry);
  }

  const sweeper = setInterval(
    () => {
      const idleSince = Date.now() - opts.idleMs;
      for (const [file, entry] of table) if (entry.users === 0 && entry.lastUsed < idleSince) retire(file);
    },
    Math.max(1000, opts.idleMs),
  );
  sweeper.unref();

  function acquire(file: string): OpenFile {
    let entry = table.get(file);
    if (!entry) {
      if (table.size >= opts.max) {
        const [oldest] = table.keys();
        if (oldest !== undefined) retire(oldest);
      }
      const fd = new Promise<number>((resolve, reject) =>
        open(file, "r", (err, fd) => (err ? reject(err) : resolve(fd))),
      );
      entry = { fd, users: 0, retired: false, lastUsed: 0 };
      table.set(file, entry);
      const created = entry;
      // a failed open (missing file) is not remembered
      fd.catch(() => {
        if (table.get(file) === created) table.delete(file);
      });
    } else {
      // most recently used last, so that the first key is the one to drop when full
      table.delete(file);
      table.set(file, entry);
    }
    entry.users += 1;
    entry.lastUsed = Date.now();
    return entry;
  }

  function release(entry: OpenFile) {
    entry.users -= 1;
    entry.lastUsed = Date.now();
    if (entry.retired) closeWhenUnused(entry);
  }

  return {
    /**
     * Streams bytes [start, end] (inclusive; end Infinity: to the end of the file) in reads of
     * `chunk` bytes, each pushed as it is (no copy).
     */
    stream(file: string, range: { start: number; end: number }, chunk: number): Readable {
      return new FileRangeStream(acquire(file), release, range, chunk);
    },
    retire,
    /** Open descriptors (for tests). */
    get size() {
      return table.size;
    },
  };
}
class FileRangeStream extends Readable {
  #entry: OpenFile | undefined;
  #fd = -1;
  #pos: number;
  readonly #end: number;
  readonly #chunk: number;
  readonly #release: (entry: OpenFile) => void;

  constructor(
    entry: OpenFile,
    release: (entry: OpenFile) => void,
    range: { start: number; end: number },
    chunk: number,
  ) {
    super({ highWaterMark: chunk });
    this.#entry = entry;
    this.#release = release;
    this.#pos = range.start;
    this.#end = range.end;
    this.#chunk = chunk;
  }

  override _construct(callback: (error?: Error | null) => void): void {
    this.#entry?.fd.then(
      (fd) => {
        this.#fd = fd;
        callback();
      },
      (err: Error) => callback(err),
    );
  }

  override _read(): void {
    const length = Math.min(this.#chunk, this.#end - this.#pos + 1);
    if (length <= 0) {
      this.push(null);
      return;
    }
    const buffer = Buffer.allocUnsafeSlow(length);
    read(this.#fd, buffer, 0, length, this.#pos, (err, bytes) => {
      if (err) {
        this.destroy(err);
        return;
      }
      if (bytes === 0) {
        this.push(null);
        return;
      }
      this.#pos += bytes;
      this.push(bytes < length ? buffer.subarray(0, bytes) : buffer);
    });
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    const entry = this.#entry;
    this.#entry = undefined;
    if (entry) this.#release(entry);
    callback(err);
  }
}
