import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { echoPause, HANDS_FREE_GAP, recallPause } from "@parlons/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import {
  download,
  FREE_LINES,
  type HandsFreeFixture,
  handsFreeCourse,
  inReview,
  learner,
  PAID_LINE,
  TONES,
} from "../../../test/helpers/hands-free";
import { type Run, runsOf } from "../../../test/helpers/session-audio";
import { customerPlans, reviewCards } from "../../db/schema";

const ESPEAK = spawnSync("espeak-ng", ["--version"]).status === 0;
/**
 * A run's length in the decoded MP3 is its planned one within 0.1 s: 20 ms frames of analysis, the
 * cuts' fades, and the fixture's own MP3 (its encoder delay, ~70 ms of silence in front, shifts
 * each line's tone a little past its cue).
 */
const CLOSE = 0.1;

/** The runs an echo of this line makes: the line, a pause of 1.2 times its length, the line. */
const echo = (line: { start: number; end: number; hz: number }): Run[] => [
  { type: "tone", hz: line.hz, seconds: line.end - line.start },
  { type: "silence", seconds: echoPause(line.end - line.start) },
  { type: "tone", hz: line.hz, seconds: line.end - line.start },
];
const gap: Run = { type: "silence", seconds: HANDS_FREE_GAP };
const recall = (line: { start: number; end: number; hz: number }): (Run | { type: "speech" })[] => [
  { type: "speech" },
  { type: "silence", seconds: recallPause(line.end - line.start) },
  { type: "tone", hz: line.hz, seconds: line.end - line.start },
];

/** The runs the session's plan (GET /practice/hands-free with the same query) says the MP3 holds, in its order. */
async function planned(t: TestContext, token: string, query = "", echoOnly = false) {
  const res = await t.request({ method: "GET", url: `/api/v1/practice/hands-free${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  const items = res.json().data.items as { kind: "echo" | "recall"; cue: { start: number } }[];
  expect(items.length).toBeGreaterThan(0);
  return items.flatMap((item, i) => {
    const line = [...FREE_LINES, PAID_LINE].find((l) => l.start === item.cue.start);
    if (!line) throw new Error(`no line at ${item.cue.start}`);
    return [...(i > 0 ? [gap] : []), ...(item.kind === "echo" || echoOnly ? echo(line) : recall(line))];
  });
}

/**
 * The runs match the expected ones in order and kind, each of the expected length (speech: any;
 * a silence after speech may be 0.15 s longer still: a voice fades out under the detector's threshold).
 */
function expectRuns(runs: Run[], expected: (Run | { type: "speech" })[]) {
  expect(runs.map((r) => (r.type === "tone" ? `tone ${r.hz}` : r.type))).toEqual(
    expected.map((r) => (r.type === "tone" ? `tone ${r.hz}` : r.type)),
  );
  for (const [i, want] of expected.entries()) {
    const got = runs[i] as Run;
    if (!("seconds" in want) || want.type === "speech") continue;
    const afterSpeech = expected[i - 1]?.type === "speech";
    const off = got.seconds - want.seconds;
    expect(
      afterSpeech ? off > -CLOSE && off < CLOSE + 0.15 : Math.abs(off) < CLOSE,
      `run ${i}: ${got.seconds} s, ${want.seconds} s planned`,
    ).toBe(true);
  }
}

describe("the hands-free session as one MP3, with espeak-ng", () => {
  let t: TestContext;
  let fx: HandsFreeFixture;
  beforeAll(async () => {
    t = await buildTestApp();
    fx = await handsFreeCourse(t);
    // a loaded machine takes its time to build the app and upload the lesson's audio
  }, 180_000);
  afterAll(() => t.close());

  it("is the lines cut from the lesson's audio, the pauses as silences, in the plan's order", async () => {
    const user = await learner(t, fx);
    const res = await download(t, user.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("audio/mpeg");
    expect(res.headers["x-session-items"]).toBe("3");
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="parlons-\d{4}-\d{2}-\d{2}\.mp3"$/,
    );
    // new lines are echoed: line, pause, line; a gap between items
    const [a, b, c] = FREE_LINES as [(typeof FREE_LINES)[0], (typeof FREE_LINES)[0], (typeof FREE_LINES)[0]];
    const expected = [...echo(a), gap, ...echo(b), gap, ...echo(c)];
    expect(await planned(t, user.token)).toEqual(expected);
    expectRuns(await runsOf(res.rawPayload, TONES), expected);
  });

  it.skipIf(!ESPEAK)(
    "speaks the recall prompts in the learner's language before the pause and the line",
    async () => {
      const user = await learner(t, fx);
      // every line in review, due now: lines with a translation are recalled
      await inReview(t, user.id, user.token);
      const res = await download(t, user.token, "?lang=en");
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["x-session-mode"]).toBe("speech");
      // in the deck's order: two recalls (prompt, pause, line) and the echo of the line with no translation
      const expected = await planned(t, user.token, "?lang=en");
      expect(expected.filter((r) => r.type === "speech")).toHaveLength(2);
      const runs = await runsOf(res.rawPayload, TONES);
      expectRuns(runs, expected);
      // "Good morning." and "I would like a coffee." read aloud take a moment, not a click
      for (const run of runs.filter((r) => r.type === "speech")) expect(run.seconds).toBeGreaterThan(0.4);
    },
  );

  it("is the same file all day, cards graded meanwhile, and answers Range and HEAD", async () => {
    const user = await learner(t, fx);
    const first = await download(t, user.token);
    // a line graded: today's plan changes, today's file does not
    const [card] = await t.database.db.select().from(reviewCards).where(eq(reviewCards.userId, user.id));
    const graded = await t.request({
      method: "POST",
      url: "/api/v1/review/grade",
      token: user.token,
      payload: { review_id: randomUUID(), card_id: card?.id, rating: 4 },
    });
    expect(graded.statusCode, graded.body).toBe(200);
    const plan = await t.request({ method: "GET", url: "/api/v1/practice/hands-free", token: user.token });
    expect(plan.json().data.items).toHaveLength(2);
    const again = await download(t, user.token);
    expect(again.headers["x-session-items"]).toBe("3");
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    const head = await t.request({
      method: "HEAD",
      url: "/api/v1/practice/hands-free/audio.mp3",
      token: user.token,
    });
    expect(head.headers["content-length"]).toBe(String(first.rawPayload.length));
    const range = await t.request({
      method: "GET",
      url: "/api/v1/practice/hands-free/audio.mp3",
      token: user.token,
      headers: { range: "bytes=0-99" },
    });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.equals(first.rawPayload.subarray(0, 100))).toBe(true);
  });

  it("checks the plan at every fetch: a plan that ends takes the premium lines out", async () => {
    const user = await learner(t, fx, { premium: true });
    const premium = await download(t, user.token, "?kinds=echo");
    expect(premium.headers["x-session-items"]).toBe("4");
    expect(
      (await runsOf(premium.rawPayload, TONES)).some((r) => r.type === "tone" && r.hz === PAID_LINE.hz),
    ).toBe(true);

    await t.database.db
      .update(customerPlans)
      .set({ status: "CANCELLED", accessUntil: new Date(Date.now() - 1000) })
      .where(eq(customerPlans.userId, user.id));
    t.app.deps.changes.publish(`user:${user.id}`);
    const ended = await download(t, user.token, "?kinds=echo");
    expect(ended.statusCode).toBe(200);
    expect(ended.headers["x-session-items"]).toBe("3");
    const runs = await runsOf(ended.rawPayload, TONES);
    expect(runs.some((r) => r.type === "tone" && r.hz === PAID_LINE.hz)).toBe(false);
  });

  it("is the caller's own, signed in only; nothing due answers 404 SESSION_EMPTY; bad input 4xx", async () => {
    expect(
      (await t.request({ method: "GET", url: "/api/v1/practice/hands-free/audio.mp3" })).statusCode,
    ).toBe(401);
    const fresh = await t.createUser();
    const empty = await download(t, fresh.token);
    expect(empty.statusCode).toBe(404);
    expect(empty.json().code).toBe("SESSION_EMPTY");
    const bad = await download(t, fresh.token, "?limit=0&kinds=dance");
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors ?? {})).toEqual(expect.arrayContaining(["limit", "kinds"]));
  });
});

describe("the hands-free session as one MP3, without a synthesizer", () => {
  let t: TestContext;
  let fx: HandsFreeFixture;
  beforeAll(async () => {
    // what a server without espeak-ng renders
    t = await buildTestApp({ env: { SESSION_SPEECH: "off" } });
    fx = await handsFreeCourse(t);
    // a loaded machine takes its time to build the app and upload the lesson's audio
  }, 180_000);
  afterAll(() => t.close());

  it("echoes every item, recalls included, and says so", async () => {
    const user = await learner(t, fx);
    const res = await download(t, user.token, "?kinds=recall&lang=en");
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["x-session-mode"]).toBe("echo_only");
    // the plan has recalls (the app speaks them with the device's voice); the MP3 echoes them
    expect((await planned(t, user.token, "?kinds=recall&lang=en")).some((r) => r.type === "speech")).toBe(
      true,
    );
    const expected = await planned(t, user.token, "?kinds=recall&lang=en", true);
    expectRuns(await runsOf(res.rawPayload, TONES), expected);
  });
});
