import { and, gt, inArray, lt } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { media, storageTrash } from "../../db/schema/media";
import type { Storage } from "../../integrations/storage/storage";

/** How old a mark must be before the sweep acts on it: well past any upload or delete in progress. */
export const SWEEP_AFTER_MS = 60 * 60_000;
const BATCH = 500;

/** Which of these keys a row of some module still uses (each module answers for its own tables). */
export type KeysInUse = (db: Db, keys: string[]) => Promise<string[]>;

const mediaKeysInUse: KeysInUse = async (db, keys) =>
  (await db.select({ key: media.path }).from(media).where(inArray(media.path, keys))).map((r) => r.key);

/**
 * Files on their way out of storage (table `storage_trash`): marked in the same transaction as
 * the change that frees them, deleted after it commits, and swept later if the process stopped
 * in between, so that no file outlives its row for long and no row loses its file.
 */
export function createStorageTrash(deps: { db: Db; storage: Storage; alsoInUse?: KeysInUse[] }) {
  const { db, storage } = deps;
  const usageChecks = [mediaKeysInUse, ...(deps.alsoInUse ?? [])];

  /** Deletes each file; the keys whose file is gone (a storage failure keeps its mark for the sweep). */
  async function deleteFiles(keys: string[]): Promise<string[]> {
    const gone: string[] = [];
    for (const key of new Set(keys)) {
      try {
        await storage.delete(key);
        gone.push(key);
      } catch {
        // storage unreachable: the mark stays and the sweep tries again
      }
    }
    return gone;
  }

  async function unmarkAll(keys: string[], tx: DbOrTx = db): Promise<void> {
    for (let i = 0; i < keys.length; i += BATCH)
      await tx.delete(storageTrash).where(inArray(storageTrash.key, keys.slice(i, i + BATCH)));
  }

  return {
    /** Marks keys inside the caller's transaction (the one that removes their rows, or before an upload). */
    async mark(keys: string[], tx: DbOrTx = db): Promise<void> {
      const unique = [...new Set(keys)];
      for (let i = 0; i < unique.length; i += BATCH)
        await tx
          .insert(storageTrash)
          .values(unique.slice(i, i + BATCH).map((key) => ({ key })))
          .onConflictDoNothing();
    },

    /** An upload whose row is written: its file stays. */
    unmark: (keys: string[], tx: DbOrTx = db) => unmarkAll(keys, tx),

    /** Deletes the files of marked keys (after the commit) and their marks; how many files went. */
    async empty(keys: string[]): Promise<number> {
      if (keys.length === 0) return 0;
      const gone = await deleteFiles(keys);
      await unmarkAll(gone);
      return gone.length;
    },

    /**
     * Marks older than `SWEEP_AFTER_MS`: a file no row uses is deleted, a file a row uses is kept;
     * either way the mark goes (unless the storage refused the delete). Safe in several processes
     * at once: deleting a file twice is harmless.
     */
    async sweep(now = new Date()): Promise<{ deleted: number; kept: number }> {
      const cutoff = new Date(now.getTime() - SWEEP_AFTER_MS);
      let deleted = 0;
      let kept = 0;
      let after: string | null = null;
      for (;;) {
        const rows: { key: string }[] = await db
          .select({ key: storageTrash.key })
          .from(storageTrash)
          .where(
            and(lt(storageTrash.createdAt, cutoff), after === null ? undefined : gt(storageTrash.key, after)),
          )
          .orderBy(storageTrash.key)
          .limit(BATCH);
        if (rows.length === 0) break;
        const keys = rows.map((r) => r.key);
        const used = new Set((await Promise.all(usageChecks.map((check) => check(db, keys)))).flat());
        const inUse = keys.filter((k) => used.has(k));
        const gone = await deleteFiles(keys.filter((k) => !used.has(k)));
        await unmarkAll([...inUse, ...gone]);
        deleted += gone.length;
        kept += inUse.length;
        if (rows.length < BATCH) break;
        after = keys[keys.length - 1] ?? null;
      }
      return { deleted, kept };
    },
  };
}
export type StorageTrash = ReturnType<typeof createStorageTrash>;
