import { chmod, copyFile, mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../../lib/private-files";
import { createOpenFiles } from "./open-files";
import { assertKey, type Storage } from "./storage";

/** Bytes per read: a player's typical Range request (256 KiB) in one read, one write to the socket. */
const READ_CHUNK = 512 * 1024;

/**
 * Media files under one folder (DATA_DIR/media by default), streamed with byte ranges from
 * descriptors kept open while the file is being listened to (see open-files.ts).
 */
export function createDiskStorage(root: string): Storage {
  const fileOf = (key: string) => path.join(root, assertKey(key));
  const openFiles = createOpenFiles({ idleMs: 10_000, max: 256 });
  const ensureDir = (file: string) => mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });

  return {
    kind: "disk",
    async tempDir() {
      const dir = path.join(root, ".tmp");
      await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
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
      // a copy or a moved file keeps its source's mode: voice recordings are nobody else's
      await chmod(file, PRIVATE_FILE_MODE);
      // streams that start from now on open the new file
      openFiles.retire(file);
    },
    async copyFile(key, localFile) {
      const file = fileOf(key);
      await ensureDir(file);
      await copyFile(localFile, file);
      await chmod(file, PRIVATE_FILE_MODE);
      openFiles.retire(file);
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
      return openFiles.stream(fileOf(key), range ?? { start: 0, end: Number.POSITIVE_INFINITY }, READ_CHUNK);
    },
    async delete(key) {
      const file = fileOf(key);
      await rm(file, { force: true });
      openFiles.retire(file);
    },
  };
}
