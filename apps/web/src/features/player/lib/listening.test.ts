import { describe, expect, it } from "vitest";
import { addPlayed, createListeningReporter, type ListeningDeps, reportOf } from "./listening";

type Buckets = Parameters<typeof addPlayed>[0];

describe("listening buckets", () => {
  const lesson = "0190a0a0-0000-7000-8000-000000000001";
  const minute = Date.parse("2026-03-10T10:00:00Z");

  it("splits playing time across minutes, never over 60 s in one, and reports whole seconds", () => {
    const buckets: Buckets = new Map();
    addPlayed(buckets, lesson, minute + 50_000, minute + 70_500);
    expect(reportOf(buckets)).toEqual([
      { lesson_id: lesson, minute: "2026-03-10T10:00:00.000Z", seconds: 10 },
      { lesson_id: lesson, minute: "2026-03-10T10:01:00.000Z", seconds: 10 },
    ]);
    addPlayed(buckets, lesson, minute, minute + 120_000);
    expect(reportOf(buckets).map((i) => i.seconds)).toEqual([60, 60]);
  });

  it("reports a bucket again only when it grew past what the server took", () => {
    const buckets: Buckets = new Map();
    addPlayed(buckets, lesson, minute, minute + 20_000);
    for (const b of buckets.values()) b.sent = 20;
    expect(reportOf(buckets)).toEqual([]);
    addPlayed(buckets, lesson, minute + 20_000, minute + 25_000);
    expect(reportOf(buckets)).toEqual([
      { lesson_id: lesson, minute: "2026-03-10T10:00:00.000Z", seconds: 25 },
    ]);
    // under a second is not worth a call
    const tiny: Buckets = new Map();
    addPlayed(tiny, lesson, minute, minute + 400);
    expect(reportOf(tiny)).toEqual([]);
  });
});

describe("the listening reporter", () => {
  const lesson = "0190a0a0-0000-7000-8000-000000000002";
  type Items = Parameters<ListeningDeps["post"]>[0];

  /**
   * A page whose API and queue are recorded. `online` is what navigator.onLine says, `reachable`
   * whether requests get through (a tab can close with onLine true and the network gone).
   */
  function page(opts: { online?: boolean; signedIn?: boolean } = {}) {
    const net = { online: opts.online ?? true, reachable: opts.online ?? true };
    const posts: { items: Items; keepalive: boolean }[] = [];
    const queued: Items[] = [];
    const reporter = createListeningReporter({
      post: async (items, { keepalive }) => {
        posts.push({ items, keepalive });
        if (!net.reachable) throw Object.assign(new Error("network"), { status: 0 });
      },
      queue: async (_userId, items) => {
        queued.push(items);
      },
      userId: () => (opts.signedIn === false ? null : "user-1"),
      online: () => net.online,
    });
    // seconds `from`..`to` of the current minute played (a past minute sent whole is forgotten)
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    const play = (from: number, to: number) =>
      addPlayed(reporter.buckets, lesson, minute + from * 1000, minute + to * 1000);
    const item = (seconds: number) => ({
      lesson_id: lesson,
      minute: new Date(minute).toISOString(),
      seconds,
    });
    return { reporter, posts, queued, play, item, net };
  }

  it("sends the seconds played since the last report as the tab goes away, with a keepalive request", async () => {
    const p = page();
    p.play(0, 20);
    await p.reporter.flush();
    p.play(20, 27);
    await p.reporter.leave();
    expect(p.posts).toEqual([
      { items: [p.item(20)], keepalive: false },
      // the minute's whole value: the server keeps the largest, so 27 s count, not 47
      { items: [p.item(27)], keepalive: true },
    ]);
    // hidden, then closed: nothing new, nothing sent again
    await p.reporter.leave();
    await p.reporter.flush();
    expect(p.posts).toHaveLength(2);
    expect(p.queued).toEqual([]);
  });

  it("offline, leaving keeps the unsent seconds in the offline queue instead of sending", async () => {
    const p = page({ online: false });
    p.play(0, 15);
    await p.reporter.leave();
    expect(p.posts).toEqual([]);
    expect(p.queued).toEqual([[p.item(15)]]);
  });

  it("a keepalive the network lost goes to the queue", async () => {
    const p = page();
    p.net.reachable = false;
    p.play(0, 9);
    await p.reporter.leave();
    expect(p.posts).toEqual([{ items: [p.item(9)], keepalive: true }]);
    expect(p.queued).toEqual([[p.item(9)]]);
  });

  it("a report the network lost goes to the queue too, and is sent again once it is back", async () => {
    const p = page();
    p.play(0, 12);
    p.net.reachable = false;
    await p.reporter.flush();
    expect(p.queued).toEqual([[p.item(12)]]);
    p.net.reachable = true;
    await p.reporter.flush();
    expect(p.posts.map((x) => x.items)).toEqual([[p.item(12)], [p.item(12)]]);
    await p.reporter.flush();
    expect(p.posts).toHaveLength(2);
  });

  it("a visitor reports nothing", async () => {
    const p = page({ signedIn: false });
    p.play(0, 30);
    await p.reporter.leave();
    await p.reporter.flush();
    expect(p.posts).toEqual([]);
    expect(p.queued).toEqual([]);
  });
});
