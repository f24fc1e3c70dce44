import { describe, expect, it } from "vitest";
import { type AlignmentState, QUEUED_FOR_MS, RUNNING_SILENT_MS, transition } from "./job-state";

const at = new Date("2026-01-01T10:00:00Z");
const state = (status: AlignmentState["status"], progress = 0): AlignmentState => ({
  status,
  progress,
  updatedAt: at,
});
const later = (ms: number) => new Date(at.getTime() + ms);

describe("alignment job states", () => {
  it("runs a queued job once, and only a queued one", () => {
    expect(transition(state("queued"), { type: "claim" }).patch).toEqual({ status: "running", progress: 0 });
    for (const s of ["running", "done", "failed"] as const)
      expect(transition(state(s), { type: "claim" }).patch).toBeNull();
  });

  it("moves progress forward only, while running, within 0–1", () => {
    expect(transition(state("running", 0.2), { type: "progress", fraction: 0.5 }).patch).toEqual({
      progress: 0.5,
    });
    expect(transition(state("running", 0.5), { type: "progress", fraction: 0.4 }).patch).toBeNull();
    expect(transition(state("running", 0.5), { type: "progress", fraction: 7 }).patch).toEqual({
      progress: 1,
    });
    expect(transition(state("queued"), { type: "progress", fraction: 0.5 }).patch).toBeNull();
    expect(transition(state("done", 1), { type: "progress", fraction: 0.5 }).patch).toBeNull();
  });

  it("ends a running job done or failed; a finished job stays as it is", () => {
    expect(transition(state("running", 0.7), { type: "done" }).patch).toEqual({
      status: "done",
      progress: 1,
    });
    expect(transition(state("queued"), { type: "done" }).patch).toBeNull();
    expect(transition(state("running"), { type: "fail" }).patch).toEqual({ status: "failed" });
    expect(transition(state("queued"), { type: "fail" }).patch).toEqual({ status: "failed" });
    expect(transition(state("done", 1), { type: "fail" }).patch).toBeNull();
  });

  it("fails a job lost with its process, not one still moving", () => {
    const running = state("running", 0.3);
    expect(transition(running, { type: "check", now: later(RUNNING_SILENT_MS - 1) }).patch).toBeNull();
    expect(transition(running, { type: "check", now: later(RUNNING_SILENT_MS + 1) })).toEqual({
      patch: { status: "failed" },
      lost: true,
    });
    // a queued job may wait behind others longer than a running one may stay silent
    expect(
      transition(state("queued"), { type: "check", now: later(RUNNING_SILENT_MS + 1) }).patch,
    ).toBeNull();
    expect(transition(state("queued"), { type: "check", now: later(QUEUED_FOR_MS + 1) }).lost).toBe(true);
    expect(transition(state("done", 1), { type: "check", now: later(QUEUED_FOR_MS * 9) }).patch).toBeNull();
  });
});
