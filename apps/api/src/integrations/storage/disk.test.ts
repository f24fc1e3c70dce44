import { randomBytes } from "node:crypto";
import { mkdtempSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { createDiskStorage } from "./disk";
import { createOpenFiles } from "./open-files";
import { cachedStat } from "./storage";

const dir = () => mkdtempSync(path.join(tmpdir(), "parlons-disk-"));

describe("disk storage reads", () => {
  it("streams whole files and inclusive ranges byte for byte, in chunks", async () => {
    const root = dir();
    const bytes = randomBytes(1_300_000);
    const local = path.join(root, "in.mp3");
    writeFileSync(local, bytes);
    const storage = createDiskStorage(root);
    await storage.copyFile("audio/a.mp3", local);
    expect((await buffer(storage.read("audio/a.mp3"))).equals(bytes)).toBe(true);
    for (const [start, end] of [
      [0, 0],
      [0, 262_143],
      [1000, 1_299_999],
      [1_299_500, 1_299_999],
    ] as const) {
      const got = await buffer(storage.read("audio/a.mp3", { start, end }));
      expect(got.equals(bytes.subarray(start, end + 1)), `${start}-${end}`).toBe(true);
    }
    await expect(buffer(storage.read("audio/missing.mp3"))).rejects.toThrow(/ENOENT/);
  });

  it("shares one descriptor between streams and reopens a file written again", async () => {
    const root = dir();
    const file = path.join(root, "a.mp3");
    writeFileSync(file, Buffer.alloc(1000, 1));
    const files = createOpenFiles({ idleMs: 60_000, max: 2 });
    const all = { start: 0, end: Number.POSITIVE_INFINITY };
    const [a, b] = await Promise.all([
      buffer(files.stream(file, all, 256)),
      buffer(files.stream(file, all, 300)),
    ]);
    expect(a.equals(Buffer.alloc(1000, 1)) && b.equals(a)).toBe(true);
    expect(files.size).toBe(1);
    // replaced on disk (a new inode, as putFile's rename does): retired, the next stream sees the new bytes
    const next = path.join(root, "next");
    writeFileSync(next, Buffer.alloc(500, 2));
    renameSync(next, file);
    expect((await buffer(files.stream(file, all, 256))).equals(Buffer.alloc(1000, 1))).toBe(true);
    files.retire(file);
    expect(files.size).toBe(0);
    expect((await buffer(files.stream(file, all, 256))).equals(Buffer.alloc(500, 2))).toBe(true);
    // at most `max` descriptors: the least recently used goes
    for (const name of ["b", "c"]) writeFileSync(path.join(root, name), name);
    await buffer(files.stream(path.join(root, "b"), all, 10));
    await buffer(files.stream(path.join(root, "c"), all, 10));
    expect(files.size).toBe(2);
  });

  it("remembers stat answers until the key is written or deleted in this process", async () => {
    const root = dir();
    const local = path.join(root, "in.mp3");
    writeFileSync(local, Buffer.alloc(10));
    const storage = cachedStat(createDiskStorage(root), 60_000);
    expect(await storage.stat("audio/x.mp3")).toBeNull();
    await storage.copyFile("audio/x.mp3", local);
    expect((await storage.stat("audio/x.mp3"))?.size).toBe(10);
    const first = await storage.stat("audio/x.mp3");
    expect(await storage.stat("audio/x.mp3")).toBe(first);
    await storage.delete("audio/x.mp3");
    expect(await storage.stat("audio/x.mp3")).toBeNull();
  });
});
