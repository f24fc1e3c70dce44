import type { StorageTrash } from "../modules/media/trash";
import { type QueueingJob, type QueueingJobOptions, startQueueingJob } from "./queueing-job";

/**
 * Deletes, every hour (started by server.ts), the stored files a stopped process left marked
 * in `storage_trash`: the bytes of a deleted lesson, course cover or recording, or of an upload
 * whose row was never written. A file a row still uses is kept (media/trash.ts).
 */
export function startStorageSweep(
  opts: QueueingJobOptions & { trash: Pick<StorageTrash, "sweep"> },
): QueueingJob {
  const { trash, ...job } = opts;
  return startQueueingJob({
    ...job,
    job: "storage-sweep",
    what: "orphan files",
    outcome: "deleted",
    queue: async (now) => (await trash.sweep(now)).deleted,
    intervalMs: opts.intervalMs ?? 60 * 60_000,
    firstRunMs: 2 * 60_000,
  });
}
