import type { Db } from "../db/client";
import { type Job, type JobOptions, startJob } from "./runner";

const HOUR = 60 * 60_000;

/**
 * Deletes the hands-free session MP3s of past days (modules/practice/hands-free-files.ts): soon
 * after the server starts (what a stopped server left behind), then every hour. The rows say which
 * files exist, so a restart forgets nothing. One process of those sharing the database sweeps each
 * hour.
 */
export function startHandsFreeSweep(
  opts: JobOptions & { db: Db; sessions: { sweep(now: Date): Promise<number> } },
): Job<number> {
  const { db, sessions, ...job } = opts;
  return startJob({
    ...job,
    name: "hands-free-sweep",
    run: ({ now }) => sessions.sweep(now ?? new Date()),
    idle: 0,
    report: (deleted) => ({
      ...(deleted ? { message: "past hands-free sessions deleted", fields: { deleted } } : {}),
      items: { deleted },
    }),
    failed: "hands-free sweep failed",
    everyMs: HOUR,
    firstMs: 20_000,
    lease: { db, everyMs: opts.intervalMs ?? HOUR },
  });
}
