import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons, makePremium } from "../../../test/helpers/learning";
import { customerPlans, reviewCards, reviewLogs } from "../../db/schema";

let t: TestContext;
let admin: string;
let fx: Awaited<ReturnType<typeof courseWithLessons>>;
let base: string;

const LINES = [
  "¡Buenos días! Quisiera un café con leche, por favor.",
  "El café está muy caliente y el pan está fresco.",
  "¿Dónde está la estación de tren?",
];

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  fx = await courseWithLessons(t, admin);
  base = `/api/v1/courses/${fx.course.id}/lessons`;
  const put = await t.request({
    method: "PUT",
    url: `${base}/${fx.free.id}/cues`,
    token: admin,
    payload: {
      cues: LINES.map((text, i) => ({ start: i * 3, end: i * 3 + 3, text, translation_fr: `Phrase ${i}` })),
    },
  });
  expect(put.statusCode, put.body).toBe(200);
});
afterAll(() => t.close());

interface Exercise {
  kind: "dictation" | "cloze" | "recall";
  card: { id: string; state: string; reps: number };
  cue: { id: string; text: string };
  lesson: { id: string };
  language: string;
  cloze: { blanks: number[]; choices: string[][] } | null;
}

async function learnerWithDeck(lessonId = fx.free.id) {
  const learner = await t.createUser();
  const done = await t.request({
    method: "POST",
    url: `${base}/done-customer`,
    token: learner.token,
    payload: { lesson_id: lessonId, done: true },
  });
  expect(done.statusCode, done.body).toBe(200);
  return learner;
}
const session = async (token: string, query = "") => {
  const res = await t.request({ method: "GET", url: `/api/v1/practice/session${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { items: Exercise[]; counts: { new: number; due: number } };
};
const send = (token: string, body: Record<string, unknown>) =>
  t.request({ method: "POST", url: "/api/v1/practice/results", token, payload: body });
const byText = (items: Exercise[], text: string) => items.find((i) => i.cue.text === text) as Exercise;
const logsOf = (cardId: string) =>
  t.database.db.select().from(reviewLogs).where(eq(reviewLogs.cardId, cardId));

describe("practice session", () => {
  it("makes an exercise of each card to review, mixing kinds; a cloze blanks content words with choices from the course", async () => {
    const learner = await learnerWithDeck();
    const { items, counts } = await session(learner.token);
    expect(counts).toEqual({ new: 3, due: 0 });
    expect(items.map((i) => i.cue.text)).toEqual(LINES);
    expect(new Set(items.map((i) => i.kind)).size).toBeGreaterThan(1);
    // new lines are heard or filled in before they are recalled from their translation
    expect(items.every((i) => i.kind !== "recall")).toBe(true);
    const clozes = (await session(learner.token, "?kinds=cloze")).items;
    const first = byText(clozes, LINES[1] as string);
    expect(first).toMatchObject({ kind: "cloze", language: "es" });
    // "café" is the course's most used content word, "caliente" the longest; the long line gets two blanks
    expect(first.cloze?.blanks).toEqual([1, 4]);
    for (const [i, choices] of (first.cloze?.choices ?? []).entries()) {
      expect(choices).toContain(["café", "caliente"][i]);
      expect(choices.length).toBeGreaterThan(1);
    }
    expect(
      (await session(learner.token, "?kinds=dictation")).items.every((i) => i.kind === "dictation"),
    ).toBe(true);
  });

  it("refuses an unknown kind or limit with field errors", async () => {
    const learner = await learnerWithDeck();
    for (const query of ["?kinds=dictation,poem", "?limit=0", "?limit=abc"]) {
      const res = await t.request({
        method: "GET",
        url: `/api/v1/practice/session${query}`,
        token: learner.token,
      });
      expect(res.statusCode, query).toBe(422);
      expect(res.json()).toMatchObject({ code: "VALIDATION_FAILED" });
    }
    const anonymous = await t.request({ method: "GET", url: "/api/v1/practice/session" });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("practice results", () => {
  it("grades a dictation on the server (case and punctuation ignored) and the card as Good, once per result id", async () => {
    const learner = await learnerWithDeck();
    const item = byText((await session(learner.token)).items, LINES[2] as string);
    const body = {
      result_id: randomUUID(),
      card_id: item.card.id,
      kind: "dictation",
      answer: "donde esta la estacion de tren",
      ignore_accents: true,
    };
    const res = await send(learner.token, body);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ grade: { rating: 3, accuracy: 1, correct: true }, duplicate: false });
    expect(data.card).toMatchObject({ state: "learning", reps: 1 });
    expect(data.counts.new).toBe(2);
    // sent again (an offline replay): counted once
    const again = await send(learner.token, body);
    expect(again.json().data).toMatchObject({ duplicate: true, card: { reps: 1 } });
    const logs = await logsOf(item.card.id);
    expect(logs.map((l) => l.rating)).toEqual([3]);
  });

  it("a failed dictation is Again, with the word-by-word diff; accents count unless the setting ignores them", async () => {
    const learner = await learnerWithDeck();
    const item = byText((await session(learner.token)).items, LINES[2] as string);
    const res = await send(learner.token, {
      result_id: randomUUID(),
      card_id: item.card.id,
      kind: "dictation",
      answer: "donde esta la estacion",
    });
    expect(res.statusCode, res.body).toBe(200);
    const { grade, card } = res.json().data;
    expect(grade.rating).toBe(1);
    expect(grade.diff).toEqual([
      { op: "accent", expected: "Dónde", given: "donde" },
      { op: "accent", expected: "está", given: "esta" },
      { op: "ok", expected: "la", given: "la" },
      { op: "accent", expected: "estación", given: "estacion" },
      { op: "missing", expected: "de" },
      { op: "missing", expected: "tren" },
    ]);
    expect(card).toMatchObject({ state: "learning", lapses: 0 });
    const [row] = await t.database.db.select().from(reviewCards).where(eq(reviewCards.id, item.card.id));
    expect(row?.reps).toBe(1);
    expect((await logsOf(item.card.id)).map((l) => l.rating)).toEqual([1]);
  });

  it("grades a cloze blank by blank, refuses blanks that are no words of the line", async () => {
    const learner = await learnerWithDeck();
    const item = byText((await session(learner.token, "?kinds=cloze")).items, LINES[1] as string);
    const base = { card_id: item.card.id, kind: "cloze", blanks: item.cloze?.blanks };
    const wrong = await send(learner.token, {
      ...base,
      result_id: randomUUID(),
      blanks: [1, 40],
      answers: ["café", "x"],
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject({
      code: "VALIDATION_FAILED",
      errors: { blanks: [expect.any(String)] },
    });
    const mismatch = await send(learner.token, { ...base, result_id: randomUUID(), answers: ["café"] });
    expect(mismatch.statusCode).toBe(422);
    const half = await send(learner.token, { ...base, result_id: randomUUID(), answers: ["CAFÉ", "frío"] });
    expect(half.statusCode, half.body).toBe(200);
    expect(half.json().data.grade).toMatchObject({
      rating: 2,
      accuracy: 0.5,
      blanks: [
        { index: 1, expected: "café", given: "CAFÉ", correct: true },
        { index: 4, expected: "caliente", given: "frío", correct: false },
      ],
    });
    expect((await logsOf(item.card.id)).map((l) => l.rating)).toEqual([2]);
  });

  it("takes a spoken recall's grade from the learner and grades a typed one as a dictation", async () => {
    const learner = await learnerWithDeck();
    const items = (await session(learner.token)).items;
    const spoken = await send(learner.token, {
      result_id: randomUUID(),
      card_id: byText(items, LINES[0] as string).card.id,
      kind: "recall_spoken",
      rating: 4,
    });
    expect(spoken.json().data.grade).toMatchObject({ rating: 4, diff: [] });
    const typed = await send(learner.token, {
      result_id: randomUUID(),
      card_id: byText(items, LINES[2] as string).card.id,
      kind: "recall_typed",
      answer: "¿Dónde está la estación de tren?",
    });
    expect(typed.json().data.grade).toMatchObject({ rating: 3, correct: true });
    // each line practised counts toward the day's habit goal like a line reviewed
    const habit = await t.request({ method: "GET", url: "/api/v1/habit", token: learner.token });
    expect(habit.json().data.today.lines).toBe(2);
  });

  it("refuses bad input with field errors, another learner's card, and a line whose lesson no longer opens", async () => {
    const learner = await learnerWithDeck();
    await makePremium(t, learner.id);
    const paid = await t.request({
      method: "POST",
      url: `${base}/done-customer`,
      token: learner.token,
      payload: { lesson_id: fx.paid.id, done: true },
    });
    expect(paid.statusCode).toBe(200);
    const items = (await session(learner.token)).items;
    const paidItem = items.find((i) => i.lesson.id === fx.paid.id) as Exercise;
    expect(paidItem).toBeDefined();
    for (const bad of [
      { kind: "poem", answer: "x" },
      { kind: "dictation" },
      { kind: "recall_spoken", rating: 7 },
      { kind: "dictation", answer: "x", answered_at: "yesterday" },
      { kind: "cloze", blanks: [-1], answers: ["x"] },
    ]) {
      const res = await send(learner.token, { result_id: randomUUID(), card_id: paidItem.card.id, ...bad });
      expect(res.statusCode, JSON.stringify(bad)).toBe(422);
      expect(res.json().code).toBe("VALIDATION_FAILED");
      expect(Object.keys(res.json().errors ?? {}).length).toBeGreaterThan(0);
    }
    const other = await t.createUser();
    const notMine = await send(other.token, {
      result_id: randomUUID(),
      card_id: paidItem.card.id,
      kind: "dictation",
      answer: "x",
    });
    expect(notMine.statusCode).toBe(404);

    await t.database.db
      .update(customerPlans)
      .set({ status: "CANCELLED", accessUntil: new Date(Date.now() - 1000) })
      .where(eq(customerPlans.userId, learner.id));
    t.app.deps.changes.publish(`user:${learner.id}`);
    const refused = await send(learner.token, {
      result_id: randomUUID(),
      card_id: paidItem.card.id,
      kind: "dictation",
      answer: "¿Cuánto cuesta?",
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("PREMIUM_REQUIRED");
    expect(await logsOf(paidItem.card.id)).toEqual([]);
    expect((await session(learner.token)).items.every((i) => i.lesson.id === fx.free.id)).toBe(true);
  });
});
