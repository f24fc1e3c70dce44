import { randomUUID } from "node:crypto";
import { echoPause, recallPause } from "@parlons/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons } from "../../../test/helpers/learning";
import { reviewCards, reviewLogs } from "../../db/schema";

let t: TestContext;
let fx: Awaited<ReturnType<typeof courseWithLessons>>;
let base: string;

// lines of 2 s, 3 s and 1.5 s; the last has no translation (it can only be echoed)
const LINES = [
  { start: 0, end: 2, text: "Buenos días.", translation_fr: "Bonjour.", translation_en: "Good morning." },
  { start: 2, end: 5, text: "Quisiera un café.", translation_fr: "Je voudrais un café.", translation_en: "" },
  { start: 5, end: 6.5, text: "Gracias.", translation_fr: "", translation_en: "" },
];

beforeAll(async () => {
  t = await buildTestApp();
  const admin = await t.adminToken();
  fx = await courseWithLessons(t, admin);
  base = `/api/v1/courses/${fx.course.id}/lessons`;
  const put = await t.request({
    method: "PUT",
    url: `${base}/${fx.free.id}/cues`,
    token: admin,
    payload: { cues: LINES },
  });
  expect(put.statusCode, put.body).toBe(200);
});
afterAll(() => t.close());

interface Item {
  kind: "echo" | "recall";
  card: { id: string; state: string; reps: number };
  cue: { text: string; start: number; end: number };
  lesson: { audio_url: string | null };
  language: string;
  prompt: { text: string; language: string } | null;
  steps: ({ type: "line" } | { type: "prompt" } | { type: "pause"; seconds: number })[];
}

async function learnerWithDeck() {
  const learner = await t.createUser();
  const done = await t.request({
    method: "POST",
    url: `${base}/done-customer`,
    token: learner.token,
    payload: { lesson_id: fx.free.id, done: true },
  });
  expect(done.statusCode, done.body).toBe(200);
  return learner;
}
async function plan(token: string, query = "") {
  const res = await t.request({ method: "GET", url: `/api/v1/practice/hands-free${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as {
    items: Item[];
    counts: { new: number; due: number };
    gap: number;
    seconds: number;
  };
}
const grade = (token: string, body: object) =>
  t.request({ method: "POST", url: "/api/v1/practice/hands-free/grades", token, payload: body });
const logsOf = (cardId: string) =>
  t.database.db.select().from(reviewLogs).where(eq(reviewLogs.cardId, cardId));

/** Makes a card one in review (graded Easy), due again now. */
async function inReview(token: string, cardId: string) {
  const res = await t.request({
    method: "POST",
    url: "/api/v1/review/grade",
    token,
    payload: { review_id: randomUUID(), card_id: cardId, rating: 4 },
  });
  expect(res.json().data.card.state).toBe("review");
  await t.database.db
    .update(reviewCards)
    .set({ due: new Date(Date.now() - 60_000) })
    .where(eq(reviewCards.id, cardId));
}

describe("hands-free session plan", () => {
  it("echoes new lines in the deck's order: the line, a pause of 1.2 times its length, the line again", async () => {
    const learner = await learnerWithDeck();
    const { items, counts, gap, seconds } = await plan(learner.token);
    expect(counts).toEqual({ new: 3, due: 0 });
    expect(items.map((i) => i.cue.text)).toEqual(LINES.map((l) => l.text));
    expect(items.map((i) => i.kind)).toEqual(["echo", "echo", "echo"]);
    expect(items[0]).toMatchObject({ language: "es", prompt: null });
    expect(items[0]?.lesson.audio_url).toMatch(/\/api\/v1\/media\/audio\//);
    expect(items.map((i) => i.steps)).toEqual([
      [{ type: "line" }, { type: "pause", seconds: 2.4 }, { type: "line" }],
      [{ type: "line" }, { type: "pause", seconds: 3.6 }, { type: "line" }],
      [{ type: "line" }, { type: "pause", seconds: 1.8 }, { type: "line" }],
    ]);
    // lines twice, the pauses, and a gap between items
    expect(gap).toBe(1);
    expect(seconds).toBeCloseTo(2 * 6.5 + 2.4 + 3.6 + 1.8 + 2, 5);
  });

  it("recalls lines in review from a prompt in the learner's language; lines without a translation are echoed", async () => {
    const learner = await learnerWithDeck();
    const first = await plan(learner.token);
    for (const item of first.items) await inReview(learner.token, item.card.id);
    const { items, counts } = await plan(learner.token, "?lang=en");
    expect(counts).toEqual({ new: 0, due: 3 });
    expect(items.map((i) => [i.cue.text, i.kind])).toEqual([
      ["Buenos días.", "recall"],
      ["Quisiera un café.", "recall"],
      ["Gracias.", "echo"],
    ]);
    expect(items[0]?.prompt).toEqual({ text: "Good morning.", language: "en" });
    // no English translation: the nearest one there is, and its language (for the voice)
    expect(items[1]?.prompt).toEqual({ text: "Je voudrais un café.", language: "fr" });
    expect(items[0]?.steps).toEqual([
      { type: "prompt" },
      { type: "pause", seconds: recallPause(2) },
      { type: "line" },
    ]);
    expect(recallPause(2)).toBe(4.4);
    expect(echoPause(0.5)).toBe(1);
    // the learner's settings: echo only, or recall wherever there is a prompt
    expect((await plan(learner.token, "?kinds=echo")).items.every((i) => i.kind === "echo")).toBe(true);
    const fr = await plan(learner.token, "?kinds=recall&lang=fr");
    expect(fr.items.map((i) => i.kind)).toEqual(["recall", "recall", "echo"]);
    expect(fr.items[0]?.prompt).toEqual({ text: "Bonjour.", language: "fr" });
    expect((await plan(learner.token, "?limit=1")).items).toHaveLength(1);
  });

  it("refuses unknown kinds and limits, and anonymous callers", async () => {
    const learner = await learnerWithDeck();
    for (const query of ["?kinds=echo,dictation", "?limit=0", "?limit=51", "?lang=de"]) {
      const res = await t.request({
        method: "GET",
        url: `/api/v1/practice/hands-free${query}`,
        token: learner.token,
      });
      expect(res.statusCode, query).toBe(422);
    }
    expect((await t.request({ method: "GET", url: "/api/v1/practice/hands-free" })).statusCode).toBe(401);
  });
});

describe("hands-free grades", () => {
  it("grades each item's card once per grade id: a replay changes nothing", async () => {
    const learner = await learnerWithDeck();
    const { items } = await plan(learner.token);
    const grades = items.map((item, i) => ({
      grade_id: randomUUID(),
      card_id: item.card.id,
      // one tap on the second item ("missed it"); all good for the others
      rating: i === 1 ? 1 : 3,
    }));
    const res = await grade(learner.token, { grades });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.graded.map((g: { duplicate: boolean }) => g.duplicate)).toEqual([false, false, false]);
    expect(data.graded.map((g: { card: { reps: number } }) => g.card.reps)).toEqual([1, 1, 1]);
    expect(data.counts.new).toBe(0);
    // sent again (an offline replay, or a retry after a lost answer): counted once
    const again = await grade(learner.token, { grades });
    expect(again.json().data.graded.every((g: { duplicate: boolean }) => g.duplicate)).toBe(true);
    for (const [i, g] of grades.entries())
      expect(
        (await logsOf(g.card_id)).map((l) => l.rating),
        `item ${i}`,
      ).toEqual([g.rating]);
    // a grade id of another card is a conflict, and nothing is graded
    const clash = await grade(learner.token, {
      grades: [{ grade_id: grades[0]?.grade_id, card_id: grades[1]?.card_id, rating: 3 }],
    });
    expect(clash.statusCode).toBe(409);
    expect((await logsOf(grades[1]?.card_id as string)).length).toBe(1);
  });

  it("checks every card before grading any: another learner's card is not found", async () => {
    const learner = await learnerWithDeck();
    const other = await learnerWithDeck();
    const mine = (await plan(learner.token)).items[0] as Item;
    const theirs = (await plan(other.token)).items[0] as Item;
    const res = await grade(learner.token, {
      grades: [
        { grade_id: randomUUID(), card_id: mine.card.id, rating: 3 },
        { grade_id: randomUUID(), card_id: theirs.card.id, rating: 3 },
      ],
    });
    expect(res.statusCode).toBe(404);
    expect(await logsOf(mine.card.id)).toEqual([]);
    expect(await logsOf(theirs.card.id)).toEqual([]);
  });

  it("refuses bad bodies with field errors", async () => {
    const learner = await learnerWithDeck();
    const card = (await plan(learner.token)).items[0]?.card.id;
    const same = randomUUID();
    for (const body of [
      { grades: [] },
      { grades: [{ grade_id: randomUUID(), card_id: card, rating: 5 }] },
      { grades: [{ grade_id: "x", card_id: card, rating: 3 }] },
      {
        grades: [
          { grade_id: randomUUID(), card_id: card, rating: 3 },
          { grade_id: randomUUID(), card_id: card, rating: 1 },
        ],
      },
      {
        grades: [
          { grade_id: same, card_id: card, rating: 3 },
          { grade_id: same, card_id: randomUUID(), rating: 1 },
        ],
      },
      { grades: [{ grade_id: randomUUID(), card_id: card, rating: 3 }], answered_at: "yesterday" },
    ]) {
      const res = await grade(learner.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect(res.json().code).toBe("VALIDATION_FAILED");
    }
  });
});
