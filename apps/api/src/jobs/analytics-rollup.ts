import type { FastifyBaseLogger } from "fastify";
import type { Metrics } from "../lib/metrics";

const JOB = "analytics-rollup";

/**
 * Rolls the analytics tables up every ten minutes (started by server.ts). Runs in several
 * processes take turns on the watermark row (modules/analytics/rollup.ts), each adding only what
 * was written since the previous one.
 */
export function startAnalyticsRollup(opts: {
  analytics: { rollup(now?: Date): Promise<{ from: string; to: string }> };
  log: FastifyBaseLogger;
  intervalMs?: number;
  metrics?: Pick<Metrics, "jobRun">;
}): { stop(): Promise<void> } {
  let current: Promise<unknown> = Promise.resolve();
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    current = opts.analytics
      .rollup()
      .then(() => opts.metrics?.jobRun(JOB, "ok"))
      .catch((err: unknown) => {
        opts.log.error({ err, job: JOB }, "analytics roll-up failed");
        opts.metrics?.jobRun(JOB, "failed");
      })
      .finally(() => {
        running = false;
      });
  };
  const timers = [setTimeout(run, 30_000).unref(), setInterval(run, opts.intervalMs ?? 10 * 60_000).unref()];
  return {
    async stop() {
      for (const timer of timers) clearTimeout(timer);
      await current;
    },
  };
}
