import type { AlignmentStatus } from "@parlons/contract";

/** What happens to an alignment job: the runner's events, and the clock passing over it. */
export type AlignmentEvent =
  | { type: "claim" }
  | { type: "progress"; fraction: number }
  | { type: "done" }
  | { type: "fail" }
  | { type: "check"; now: Date };

export interface AlignmentState {
  status: AlignmentStatus;
  progress: number;
  updatedAt: Date;
}

/** A running job reports progress every few tenths of a second; silent this long, its process is gone. */
export const RUNNING_SILENT_MS = 2 * 60_000;
/** A queued job waits for the ones before it in its process (seconds each); this long, it was lost. */
export const QUEUED_FOR_MS = 15 * 60_000;

export interface Transition {
  /** The fields to write, or null: the event does not apply in this state. */
  patch: Partial<Pick<AlignmentState, "status" | "progress">> | null;
  /** The job was lost with the process that held it (a `check` past its time): it fails as ALIGNMENT_FAILED. */
  lost?: boolean;
}

/**
 * THE alignment job's states: queued → running → done | failed; a queued or running job whose row
 * stopped moving (its process stopped) fails when checked, so that the lesson can be aligned again
 * (one queued or running job per lesson). Progress only moves forward, and only while running.
 */
export function transition(state: AlignmentState, event: AlignmentEvent): Transition {
  const active = state.status === "queued" || state.status === "running";
  switch (event.type) {
    case "claim":
      return { patch: state.status === "queued" ? { status: "running", progress: 0 } : null };
    case "progress": {
      if (state.status !== "running") return { patch: null };
      const fraction = Math.min(1, Math.max(state.progress, event.fraction));
      return { patch: fraction > state.progress ? { progress: fraction } : null };
    }
    case "done":
      return { patch: state.status === "running" ? { status: "done", progress: 1 } : null };
    case "fail":
      return { patch: active ? { status: "failed" } : null };
    case "check": {
      if (!active) return { patch: null };
      const silent = event.now.getTime() - state.updatedAt.getTime();
      const limit = state.status === "running" ? RUNNING_SILENT_MS : QUEUED_FOR_MS;
      return silent > limit ? { patch: { status: "failed" }, lost: true } : { patch: null };
    }
  }
}
