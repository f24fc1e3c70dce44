import type { Job, JobOptions } from "./runner";
import { startJob } from "./runner";

/**
 * Rolls the analytics tables up every ten minutes (started by server.ts). Runs in several
 * processes take turns on the watermark row (modules/analytics/rollup.ts), each adding only what
 * was written since the previous one.
 */
export function startAnalyticsRollup(
  opts: JobOptions & { analytics: { rollup(now?: Date): Promise<{ from: string; to: string }> } },
): Job<boolean> {
  const { analytics, ...job } = opts;
  return startJob({
    ...job,
    name: "analytics-rollup",
    run: async ({ now }) => {
      await analytics.rollup(now);
      return true;
    },
    idle: false,
    failed: "analytics roll-up failed",
    everyMs: 10 * 60_000,
    firstMs: 30_000,
  });
}
