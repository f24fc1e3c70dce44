import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
import { closeOfflineDb, freshOfflineDb, type OutboxEntry } from "./db";
import { enqueue, flushOutbox, pending, type SendOutcome } from "./outbox";

const LESSON = "0190a0b0-0000-7000-8000-000000000001";

const fresh = freshOfflineDb;

afterEach(() => closeOfflineDb());

/** A stand-in server: applies a key once (as the API does), and can drop the network. */
function server() {
  const applied = new Map<string, OutboxEntry>();
  let online = true;
  let answerLost = false;
  const calls: string[] = [];
  const send = async (entry: OutboxEntry): Promise<SendOutcome> => {
    calls.push(entry.key);
    await new Promise((r) => setTimeout(r, 1));
    if (!online) return "retry";
    if (!applied.has(entry.key)) applied.set(entry.key, entry);
    if (answerLost) {
      answerLost = false;
      return "retry"; // applied, but the client never heard back
    }
    return "sent";
  };
  return {
    send,
    applied,
    calls,
    setOnline: (value: boolean) => {
      online = value;
    },
    loseNextAnswer: () => {
      answerLost = true;
    },
  };
}

describe("progress outbox", () => {
  it("sends queued entries in order, once, and empties the queue", async () => {
    const db = await fresh();
    await enqueue(db, { key: "k1", userId: "u1", courseId: "c", body: { lesson_id: LESSON, played: true } });
    await enqueue(db, { key: "k2", userId: "u1", courseId: "c", body: { lesson_id: LESSON, done: true } });
    const s = server();
    expect(await flushOutbox(db, "u1", s.send)).toBe(2);
    expect(s.calls).toEqual(["k1", "k2"]);
    expect(await pending(db, "u1")).toEqual([]);
    expect(await flushOutbox(db, "u1", s.send)).toBe(0);
    expect(s.calls).toEqual(["k1", "k2"]);
  });

  it("keeps everything while offline and stops at the first network failure", async () => {
    const db = await fresh();
    for (const key of ["a", "b", "c"]) {
      await enqueue(db, { key, userId: "u1", courseId: "c", body: { lesson_id: LESSON, last_position: 1 } });
    }
    const s = server();
    s.setOnline(false);
    expect(await flushOutbox(db, "u1", s.send)).toBe(0);
    expect(s.calls).toEqual(["a"]);
    expect((await pending(db, "u1")).map((e) => e.key)).toEqual(["a", "b", "c"]);
    s.setOnline(true);
    expect(await flushOutbox(db, "u1", s.send)).toBe(3);
    expect([...s.applied.keys()]).toEqual(["a", "b", "c"]);
  });

  it("two triggers at once (online event and start-up) share one pass: nothing is sent twice", async () => {
    const db = await fresh();
    for (const key of ["a", "b"]) {
      await enqueue(db, { key, userId: "u1", courseId: "c", body: { lesson_id: LESSON, played: true } });
    }
    const s = server();
    const [first, second] = await Promise.all([flushOutbox(db, "u1", s.send), flushOutbox(db, "u1", s.send)]);
    expect(first + second).toBe(4); // the same pass answered both callers
    expect(s.calls).toEqual(["a", "b"]);
  });

  it("an entry whose answer was lost is sent again with the same key: the server applies it once", async () => {
    const db = await fresh();
    await enqueue(db, { key: "k", userId: "u1", courseId: "c", body: { lesson_id: LESSON, played: true } });
    const s = server();
    s.loseNextAnswer();
    expect(await flushOutbox(db, "u1", s.send)).toBe(0);
    expect(await pending(db, "u1")).toHaveLength(1);
    expect(await flushOutbox(db, "u1", s.send)).toBe(1);
    expect(s.calls).toEqual(["k", "k"]);
    expect(s.applied.size).toBe(1);
  });

  it("drops an entry the server refuses for good, and leaves other accounts' entries alone", async () => {
    const db = await fresh();
    await enqueue(db, { key: "bad", userId: "u1", courseId: "c", body: { lesson_id: LESSON, done: true } });
    await enqueue(db, { key: "ok", userId: "u1", courseId: "c", body: { lesson_id: LESSON, done: true } });
    await enqueue(db, {
      key: "theirs",
      userId: "u2",
      courseId: "c",
      body: { lesson_id: LESSON, done: true },
    });
    const sent: string[] = [];
    const count = await flushOutbox(db, "u1", async (entry) => {
      sent.push(entry.key);
      return entry.key === "bad" ? "refused" : "sent";
    });
    expect(count).toBe(1);
    expect(sent).toEqual(["bad", "ok"]);
    expect(await pending(db, "u1")).toEqual([]);
    expect((await pending(db, "u2")).map((e) => e.key)).toEqual(["theirs"]);
  });
});
