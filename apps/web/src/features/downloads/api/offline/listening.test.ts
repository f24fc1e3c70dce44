import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
import { closeOfflineDb, freshOfflineDb } from "./db";
import { flushListening, queuedListening, queueListening } from "./listening";
import type { SendOutcome } from "./outbox";

const LESSON = "0190a0b0-0000-7000-8000-000000000002";
const NOW = Date.parse("2026-03-10T10:30:00Z");

const fresh = freshOfflineDb;

afterEach(() => closeOfflineDb());

const item = (minute: string, seconds: number) => ({ lesson_id: LESSON, minute, seconds });

describe("the offline queue of listening", () => {
  it("keeps one record per minute at its largest value, per user", async () => {
    const db = await fresh();
    await queueListening(db, "u1", [item("2026-03-10T10:00:00Z", 20)]);
    await queueListening(db, "u1", [item("2026-03-10T10:00:00.000Z", 12), item("2026-03-10T10:01:00Z", 5)]);
    await queueListening(db, "u1", [item("2026-03-10T10:00:00Z", 31)]);
    await queueListening(db, "u2", [item("2026-03-10T10:00:00Z", 60)]);
    const mine = (await queuedListening(db, "u1")).map((r) => [r.minute, r.seconds]).sort();
    expect(mine).toEqual([
      ["2026-03-10T10:00:00.000Z", 31],
      ["2026-03-10T10:01:00.000Z", 5],
    ]);
  });

  it("is sent once the network is back, and emptied; a failure keeps it; too old minutes are dropped", async () => {
    const db = await fresh();
    await queueListening(db, "u1", [
      item("2026-03-10T10:00:00Z", 40),
      item("2026-03-10T10:01:00Z", 8),
      item("2026-01-01T10:00:00Z", 60),
    ]);
    await queueListening(db, "u2", [item("2026-03-10T10:00:00Z", 60)]);
    const sent: unknown[] = [];
    let outcome: SendOutcome = "retry";
    const send = async (items: unknown) => {
      sent.push(items);
      return outcome;
    };

    expect(await flushListening(db, "u1", send, NOW)).toBe(0);
    expect(await queuedListening(db, "u1")).toHaveLength(2);

    outcome = "sent";
    expect(await flushListening(db, "u1", send, NOW)).toBe(2);
    expect(sent.at(-1)).toEqual([item("2026-03-10T10:00:00.000Z", 40), item("2026-03-10T10:01:00.000Z", 8)]);
    expect(await queuedListening(db, "u1")).toEqual([]);
    // another account's minutes wait for them
    expect(await queuedListening(db, "u2")).toHaveLength(1);
  });

  it("a refused report leaves the queue; two runs at once send once", async () => {
    const db = await fresh();
    await queueListening(db, "u1", [item("2026-03-10T10:00:00Z", 40)]);
    let calls = 0;
    const send = async (): Promise<SendOutcome> => {
      calls += 1;
      await new Promise((r) => setTimeout(r, 5));
      return "refused";
    };
    await Promise.all([flushListening(db, "u1", send, NOW), flushListening(db, "u1", send, NOW)]);
    expect(calls).toBe(1);
    expect(await queuedListening(db, "u1")).toEqual([]);
  });
});
