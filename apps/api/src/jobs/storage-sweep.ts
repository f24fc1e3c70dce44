import type { Db } from "../db/client";
import type { StorageTrash } from "../modules/media/trash";
import { type Job, type JobOptions, startJob } from "./runner";

const HOUR = 60 * 60_000;

/**
 * Deletes, every hour (started by server.ts), the stored files a stopped process left marked
 * in `storage_trash`: the bytes of a deleted lesson, course cover or recording, or of an upload
 * whose row was never written. A file a row still uses is kept (media/trash.ts). One process of
 * those sharing the database sweeps each hour.
 */
export function startStorageSweep(
  opts: JobOptions & { db: Db; trash: Pick<StorageTrash, "sweep"> },
): Job<number> {
  const { db, trash, ...job } = opts;
  return startJob({
    ...job,
    name: "storage-sweep",
    run: async ({ now }) => (await trash.sweep(now)).deleted,
    idle: 0,
    report: (deleted) => ({
      ...(deleted ? { message: "orphan files deleted", fields: { deleted } } : {}),
      items: { deleted },
    }),
    failed: "orphan files failed",
    everyMs: HOUR,
    firstMs: 2 * 60_000,
    lease: { db, everyMs: opts.intervalMs ?? HOUR },
  });
}
