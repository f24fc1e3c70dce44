import type { StudySessionBody } from "@parlons/contract";
import { describe, expect, it } from "vitest";
import { flushSessions, keepSession, pendingSessions } from "./session-queue";

function memory() {
  const map = new Map<string, string>();
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}
const session = (id: string): StudySessionBody => ({
  id,
  kind: "review",
  items: 10,
  correct: 9,
  finished_at: "2026-11-27T08:00:00.000Z",
});

describe("sessions finished offline", () => {
  it("wait per learner, once per id, and go in order when the network is back", async () => {
    const store = memory();
    keepSession(store, "u1", session("a"));
    keepSession(store, "u1", session("a"));
    keepSession(store, "u1", session("b"));
    keepSession(store, "u2", session("c"));
    expect(pendingSessions(store, "u1").map((s) => s.id)).toEqual(["a", "b"]);
    // the network fails at the second: it and those after it wait
    const results = ["done", "retry"] as const;
    let call = 0;
    expect(await flushSessions(store, "u1", async () => results[call++] ?? "done")).toBe(1);
    expect(pendingSessions(store, "u1").map((s) => s.id)).toEqual(["b"]);
    expect(await flushSessions(store, "u1", async () => "done")).toBe(1);
    expect(pendingSessions(store, "u1")).toEqual([]);
    expect(pendingSessions(store, "u2").map((s) => s.id)).toEqual(["c"]);
  });

  it("reads a damaged list as empty", () => {
    const store = memory();
    store.setItem("habit.sessions.u1", "{not json");
    expect(pendingSessions(store, "u1")).toEqual([]);
  });
});
