import type { ReviewGradeBody } from "@parlons/contract";
import { describe, expect, it } from "vitest";
import { flushGrades, learnerStore, type OutboxStore, oneAtATime, pendingGrades, queueGrade } from "./outbox";

function memoryStore(): OutboxStore & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v) };
}
const grade = (n: number): ReviewGradeBody => ({
  review_id: `0192f1c2-7d1e-7a00-9c1b-00000000000${n}`,
  card_id: "0192f1c2-7d1e-7a00-9c1b-5d0e2f3a4b5c",
  rating: 3,
  reviewed_at: new Date(2026, 0, n).toISOString(),
});

describe("review outbox", () => {
  it("keeps grades in order, once per review id", () => {
    const store = memoryStore();
    queueGrade(store, grade(1));
    queueGrade(store, grade(2));
    queueGrade(store, grade(1));
    expect(pendingGrades(store).map((g) => g.review_id)).toEqual([grade(2).review_id, grade(1).review_id]);
  });

  it("sends in order and stops at the first that must wait, keeping it and the rest", async () => {
    const store = memoryStore();
    for (const n of [1, 2, 3]) queueGrade(store, grade(n));
    const seen: string[] = [];
    const sent = await flushGrades(store, async (g) => {
      seen.push(g.review_id);
      return g.review_id === grade(2).review_id ? "retry" : "done";
    });
    expect(sent).toBe(1);
    expect(seen).toEqual([grade(1).review_id, grade(2).review_id]);
    expect(pendingGrades(store).map((g) => g.review_id)).toEqual([grade(2).review_id, grade(3).review_id]);
    expect(await flushGrades(store, async () => "done")).toBe(2);
    expect(pendingGrades(store)).toEqual([]);
  });

  it("one flush at a time: grades made while a send is slow each go out exactly once", async () => {
    const store = memoryStore();
    const seen: string[] = [];
    let release: () => void = () => {};
    const send = async (g: ReviewGradeBody) => {
      seen.push(g.review_id);
      if (seen.length === 1) await new Promise<void>((r) => (release = r));
      return "done" as const;
    };
    const flush = oneAtATime(() => flushGrades(store, send));
    queueGrade(store, grade(1));
    const first = flush();
    // two more grades while the first is still on its way, each asking for a flush
    queueGrade(store, grade(2));
    const second = flush();
    queueGrade(store, grade(3));
    const third = flush();
    release();
    expect(await first).toBe(3);
    expect(await second).toBe(3);
    expect(await third).toBe(3);
    expect(seen).toEqual([grade(1).review_id, grade(2).review_id, grade(3).review_id]);
    expect(pendingGrades(store)).toEqual([]);
    // the next flush starts afresh
    queueGrade(store, grade(4));
    expect(await flush()).toBe(1);
  });

  it("reads a damaged store as empty", () => {
    const store = memoryStore();
    store.setItem("parlons.reviewOutbox", "{not json");
    expect(pendingGrades(store)).toEqual([]);
  });
  it("keeps each learner's grades apart: another account on the browser neither sends nor drops them", async () => {
    const browser = memoryStore();
    const ana = learnerStore(browser, "ana");
    const ben = learnerStore(browser, "ben");
    queueGrade(ana, grade(1));
    const sentForBen: ReviewGradeBody[] = [];
    expect(
      await flushGrades(ben, async (g) => {
        sentForBen.push(g);
        return "done";
      }),
    ).toBe(0);
    expect(sentForBen).toEqual([]);
    expect(pendingGrades(ana)).toEqual([grade(1)]);
    const sentForAna: ReviewGradeBody[] = [];
    await flushGrades(ana, async (g) => {
      sentForAna.push(g);
      return "done";
    });
    expect(sentForAna).toEqual([grade(1)]);
    expect(pendingGrades(ana)).toEqual([]);
  });
});
