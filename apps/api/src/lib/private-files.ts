import { chmodSync, lstatSync, readdirSync } from "node:fs";
import path from "node:path";

/**
 * DATA_DIR holds what only Parlons may read: the mail outbox (live reset links), learners' voice
 * recordings, the embedded database, backups, generated secrets. Its files are 0600 and its
 * folders 0700, whoever writes them (PGlite and tar write their own files, hence the umask too).
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** From now on, what this process creates is readable by its own user only. */
export function keepCreatedFilesPrivate(): void {
  process.umask(0o077);
}

/**
 * Makes every file (0600) and folder (0700) under `root` private, `root` included; symbolic
 * links are left as they are (their target may be anywhere). Returns how many modes it changed.
 */
export function makeTreePrivate(root: string): number {
  let changed = 0;
  const visit = (entry: string) => {
    let info: ReturnType<typeof lstatSync>;
    try {
      info = lstatSync(entry);
    } catch (err) {
      // removed meanwhile (a temp file finished)
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
      throw err;
    }
    if (info.isSymbolicLink()) return;
    const wanted = info.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
    if ((info.mode & 0o777) !== wanted) {
      chmodSync(entry, wanted);
      changed += 1;
    }
    if (info.isDirectory()) for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return changed;
}
