import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { beforeAll, describe, expect, it } from "vitest";
import { testDatabase } from "../../test/helpers/database";
import type { Database } from "../db/client";
import { jobLeases } from "../db/schema/billing";
import { type JobDefinition, startJob } from "./runner";

/** A logger that keeps its lines, and the /metrics counters a job moved. */
function watched() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const line = (level: string) => (fields: Record<string, unknown>, message: string) =>
    lines.push({ level, fields, message });
  const log = {
    info: line("info"),
    warn: line("warn"),
    error: line("error"),
  } as unknown as FastifyBaseLogger;
  const runs: string[] = [];
  const items: Record<string, number> = {};
  const metrics = {
    jobRun: (job: string, outcome: string) => runs.push(`${job}:${outcome}`),
    jobItem: (job: string, outcome: string, n = 1) => {
      items[`${job}:${outcome}`] = (items[`${job}:${outcome}`] ?? 0) + n;
    },
  };
  return { lines, log, runs, items, metrics };
}

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function job(over: Partial<JobDefinition<number>> & Pick<JobDefinition<number>, "run">) {
  const w = watched();
  const handle = startJob<number>({
    name: "test-job",
    log: w.log,
    metrics: w.metrics,
    idle: -1,
    everyMs: 60_000,
    schedule: false,
    report: (n) => ({ ...(n ? { message: "things done", fields: { n } } : {}), items: { done: n } }),
    ...over,
  });
  return { ...w, handle };
}

describe("the job runner", () => {
  it("runs one run at a time: a call during a run starts when it ends", async () => {
    let inside = 0;
    let most = 0;
    const { handle, runs, items, lines } = job({
      async run() {
        inside += 1;
        most = Math.max(most, inside);
        await later(20);
        inside -= 1;
        return 2;
      },
    });
    expect(await Promise.all([handle.runOnce(), handle.runOnce(), handle.runOnce()])).toEqual([2, 2, 2]);
    expect(most).toBe(1);
    expect(runs).toEqual(["test-job:ok", "test-job:ok", "test-job:ok"]);
    expect(items).toEqual({ "test-job:done": 6 });
    expect(lines.filter((l) => l.message === "things done")).toHaveLength(3);
    await handle.stop();
  });

  it("passes the time a test gives to the run", async () => {
    const seen: (Date | undefined)[] = [];
    const { handle } = job({
      async run({ now }) {
        seen.push(now);
        return 0;
      },
    });
    const at = new Date("2026-12-01T10:00:00Z");
    await handle.runOnce(at);
    await handle.runOnce();
    expect(seen).toEqual([at, undefined]);
  });

  it("logs and counts a failed run, answers its idle result, and the timer tries again sooner, with backoff", async () => {
    const starts: number[] = [];
    const { handle, runs, lines } = job({
      schedule: true,
      firstMs: 1,
      retryMs: 30,
      async run() {
        starts.push(Date.now());
        if (starts.length <= 2) throw new Error("database away");
        return 1;
      },
    });
    await until(() => starts.length >= 3);
    await handle.stop();
    expect(runs.slice(0, 3)).toEqual(["test-job:failed", "test-job:failed", "test-job:ok"]);
    expect(lines.filter((l) => l.level === "error").map((l) => l.fields.failuresInARow)).toEqual([1, 2]);
    const [first = 0, second = 0, third = 0] = starts;
    // 30 ms after the first failure, 120 ms after the second (well under the one-minute interval)
    expect(second - first).toBeGreaterThanOrEqual(25);
    expect(third - second).toBeGreaterThanOrEqual(110);
    expect(third - first).toBeLessThan(5000);
    expect(await job({ run: () => Promise.reject(new Error("no")) }).handle.runOnce()).toBe(-1);
  });

  it("stops cleanly: no timer after stop, the run in progress is told and waited for", async () => {
    let runsStarted = 0;
    let sawStopping = false;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { handle } = job({
      schedule: true,
      firstMs: 1,
      everyMs: 5,
      async run({ stopping }) {
        runsStarted += 1;
        await held;
        sawStopping = stopping();
        return 0;
      },
    });
    await until(() => runsStarted === 1);
    let stopped = false;
    const stopping = handle.stop().then(() => {
      stopped = true;
    });
    await later(10);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(sawStopping).toBe(true);
    await later(30);
    expect(runsStarted).toBe(1);
  });

  describe("with a lease on the database", () => {
    let database: Database;
    beforeAll(async () => {
      database = await testDatabase();
    });

    it("runs once per interval among the processes, and a failed run gives its claim back", async () => {
      await database.db.delete(jobLeases).where(eq(jobLeases.name, "leased-job"));
      let ran = 0;
      let fail = false;
      const processes = [1, 2, 3].map(
        () =>
          job({
            name: "leased-job",
            lease: { db: database.db, everyMs: 60_000 },
            async run() {
              if (fail) throw new Error("provider down");
              ran += 1;
              return 1;
            },
          }).handle,
      );
      const now = new Date();
      const results = await Promise.all(processes.map((p) => p.runOnce(now)));
      expect(results.sort()).toEqual([-1, -1, 1]);
      expect(ran).toBe(1);
      const [a, b] = processes as [(typeof processes)[0], (typeof processes)[0]];
      // within the interval: skipped; an interval later: one runs
      expect(await a.runOnce(new Date(now.getTime() + 30_000))).toBe(-1);
      fail = true;
      expect(await a.runOnce(new Date(now.getTime() + 61_000))).toBe(-1);
      fail = false;
      // the failed run's claim was given back: another process runs this interval at once
      expect(await b.runOnce(new Date(now.getTime() + 62_000))).toBe(1);
      expect(ran).toBe(2);
    });
  });
});

async function until(done: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > end) throw new Error("timed out");
    await later(5);
  }
}
