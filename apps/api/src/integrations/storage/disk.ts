import { createReadStream } from "node:fs";
import { copyFile, mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { assertKey, type Storage } from "./storage";

/** Media files under one folder (DATA_DIR/media by default), streamed with byte ranges. */
export function createDiskStorage(root: string): Storage {
  const fileOf = (key: string) => path.join(root, assertKey(key));
  const ensureDir = (file: string) => mkdir(path.dirname(file), { recursive: true });

  return {
    kind: "disk",
    async tempDir() {
      const dir = path.join(root, ".tmp");
      await mkdir(dir, { recursive: true });
      return dir;
    },
    async putFile(key, localFile) {
      const file = fileOf(key);
      await ensureDir(file);
      try {
        await rename(localFile, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
        await copyFile(localFile, file);
        await rm(localFile, { force: true });
      }
    },
    async copyFile(key, localFile) {
      const file = fileOf(key);
      await ensureDir(file);
      await copyFile(localFile, file);
    },
    async stat(key) {
      try {
        const info = await stat(fileOf(key));
        return info.isFile() ? { size: info.size, mtime: info.mtime } : null;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
        throw err;
      }
    },
    read(key, range) {
      return createReadStream(fileOf(key), range ? { start: range.start, end: range.end } : {});
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
