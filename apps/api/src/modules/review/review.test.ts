import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { type Card, createEmptyCard, fsrs, Rating, type State } from "ts-fsrs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { testClock } from "../../../test/helpers/clock";
import { courseWithLessons, makePremium } from "../../../test/helpers/learning";
import { customerPlans, reviewCards, reviewLogs } from "../../db/schema";

let t: TestContext;
let admin: string;
let fx: Awaited<ReturnType<typeof courseWithLessons>>;
let base: string;
// the time the review service sees: set by the tests that count "today"
const clock = testClock();
beforeAll(async () => {
  t = await buildTestApp({ clock });
  admin = await t.adminToken();
  fx = await courseWithLessons(t, admin);
  base = `/api/v1/courses/${fx.course.id}/lessons`;
  await t.request({
    method: "PUT",
    url: `${base}/${fx.paid.id}/cues`,
    token: admin,
    payload: {
      cues: [
        { start: 0, end: 2, text: "¿Cuánto cuesta?", translation_fr: "Combien ça coûte ?" },
        { start: 2, end: 4, text: "Tres euros.", translation_fr: "Trois euros." },
      ],
    },
  });
});
afterEach(() => clock.reset());
afterAll(() => t.close());

interface Item {
  card: { id: string; state: string; due: string; reps: number };
  cue: { id: string; text: string; start: number; end: number; translation_fr: string };
  lesson: { id: string; audio_url: string | null };
}
const markDone = (token: string, lessonId: string) =>
  t.request({
    method: "POST",
    url: `${base}/done-customer`,
    token,
    payload: { lesson_id: lessonId, done: true },
  });
const due = async (token: string) => {
  const res = await t.request({ method: "GET", url: "/api/v1/review/due", token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { items: Item[]; counts: { new: number; due: number } };
};
const grade = (token: string, body: Record<string, unknown>) =>
  t.request({ method: "POST", url: "/api/v1/review/grade", token, payload: body });
const rowOf = async (cardId: string) =>
  (await t.database.db.select().from(reviewCards).where(eq(reviewCards.id, cardId)))[0];

describe("review deck", () => {
  it("a lesson marked done puts its lines in the deck, once, as new cards in line order with the audio", async () => {
    const learner = await t.createUser();
    expect((await due(learner.token)).counts).toEqual({ new: 0, due: 0 });
    expect((await markDone(learner.token, fx.free.id)).statusCode).toBe(200);
    expect((await markDone(learner.token, fx.free.id)).statusCode).toBe(200);
    const { items, counts } = await due(learner.token);
    expect(counts).toEqual({ new: 2, due: 0 });
    expect(items.map((i) => i.cue.text)).toEqual(["Hola.", "Buenos días."]);
    expect(items[0]).toMatchObject({ card: { state: "new", reps: 0 }, cue: { start: 0, end: 2.5 } });
    const audio = await t.request({ method: "GET", url: items[0]?.lesson.audio_url as string });
    expect(audio.statusCode).toBe(200);
  });

  it("at most 20 new cards a day: the rest wait for the learner's next day", async () => {
    const other = await courseWithLessons(t, admin);
    const url = `/api/v1/courses/${other.course.id}/lessons`;
    // 25 lines in the 10 s of the lesson's audio
    const cues = Array.from({ length: 25 }, (_, i) => ({
      start: i * 0.4,
      end: Math.round((i + 1) * 0.4 * 10) / 10,
      text: `Línea ${i + 1}.`,
    }));
    const put = await t.request({
      method: "PUT",
      url: `${url}/${other.free.id}/cues`,
      token: admin,
      payload: { cues },
    });
    expect(put.statusCode, put.body).toBe(200);
    const learner = await t.createUser();
    const done = await t.request({
      method: "POST",
      url: `${url}/done-customer`,
      token: learner.token,
      payload: { lesson_id: other.free.id, done: true },
    });
    expect(done.statusCode).toBe(200);
    const first = await due(learner.token);
    expect(first.counts).toEqual({ new: 20, due: 0 });
    expect(first.items.map((i) => i.cue.text)).toEqual(cues.slice(0, 20).map((c) => c.text));
    for (const item of first.items) {
      const res = await grade(learner.token, { review_id: randomUUID(), card_id: item.card.id, rating: 3 });
      expect(res.statusCode, res.body).toBe(200);
    }
    // today's 20 are met: the five others are not offered, whatever the limit
    const after = await due(learner.token);
    expect(after.counts.new).toBe(0);
    expect(after.items.filter((i) => i.card.state === "new")).toEqual([]);
    // the learner's next day (their midnight, sent by the client) opens the five
    const tomorrow = await t.request({
      method: "GET",
      url: `/api/v1/review/due?day_start=${encodeURIComponent(new Date().toISOString())}`,
      token: learner.token,
    });
    expect(tomorrow.json().data.counts.new).toBe(5);
    expect(
      tomorrow
        .json()
        .data.items.filter((i: Item) => i.card.state === "new")
        .map((i: Item) => i.cue.text),
    ).toEqual(cues.slice(20).map((c) => c.text));
    // a day start that is no midnight of the learner's (a week ago) counts from 00:00 UTC instead
    const odd = await t.request({
      method: "GET",
      url: `/api/v1/review/due?day_start=${encodeURIComponent(new Date(Date.now() - 7 * 86_400_000).toISOString())}`,
      token: learner.token,
    });
    expect(odd.statusCode).toBe(200);
    expect(odd.json().data.counts.new).toBe(0);
  });

  it("a grade moves the due date exactly as ts-fsrs says, and a later grade goes on from there", async () => {
    const learner = await t.createUser();
    await markDone(learner.token, fx.free.id);
    const [item] = (await due(learner.token)).items;
    const cardId = item?.card.id as string;
    // the grade buttons' intervals: a new card's Again, Hard, Good and Easy as ts-fsrs would set them now
    const shown = (item as unknown as { next_intervals: number[] }).next_intervals;
    expect(shown).toHaveLength(4);
    expect(shown[0]).toBeLessThan(shown[2] as number);
    expect(shown[2]).toBeLessThan(shown[3] as number);
    const first = new Date(Date.now() - 3 * 3_600_000);
    const res = await grade(learner.token, {
      review_id: randomUUID(),
      card_id: cardId,
      rating: 3,
      reviewed_at: first.toISOString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const f = fsrs();
    const expected = f.next(createEmptyCard(first), first, Rating.Good).card;
    expect(res.json().data).toMatchObject({
      duplicate: false,
      card: { id: cardId, state: "learning", reps: 1, due: expected.due.toISOString() },
    });

    // the stored state goes into ts-fsrs again for the next grade
    const stored = (await rowOf(cardId)) as typeof reviewCards.$inferSelect;
    const asCard: Card = {
      due: stored.due,
      stability: stored.stability,
      difficulty: stored.difficulty,
      elapsed_days: stored.elapsedDays,
      scheduled_days: stored.scheduledDays,
      learning_steps: stored.learningSteps,
      reps: stored.reps,
      lapses: stored.lapses,
      state: stored.state as State,
      last_review: stored.lastReview ?? undefined,
    };
    expect(asCard.stability).toBeCloseTo(expected.stability, 10);
    const second = new Date(Date.now() - 3_600_000);
    const again = await grade(learner.token, {
      review_id: randomUUID(),
      card_id: cardId,
      rating: 4,
      reviewed_at: second.toISOString(),
    });
    expect(again.statusCode, again.body).toBe(200);
    const next = f.next(expected, second, Rating.Easy).card;
    expect(again.json().data.card).toMatchObject({ state: "review", reps: 2, due: next.due.toISOString() });
    expect(next.due.getTime()).toBeGreaterThan(Date.now() + 86_400_000);
    // the graded card is no longer due; the other one is still new
    expect((await due(learner.token)).counts).toEqual({ new: 1, due: 0 });
  });

  it("a grade sent again with the same review id (an offline replay) is ignored", async () => {
    const learner = await t.createUser();
    await markDone(learner.token, fx.free.id);
    const [item] = (await due(learner.token)).items;
    const body = { review_id: randomUUID(), card_id: item?.card.id, rating: 1 };
    const first = await grade(learner.token, body);
    expect(first.json().data.duplicate).toBe(false);
    const replay = await grade(learner.token, body);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().data).toMatchObject({ duplicate: true, card: first.json().data.card });
    // even with another rating: the id names the grade already made
    const changed = await grade(learner.token, { ...body, rating: 4 });
    expect(changed.json().data).toMatchObject({ duplicate: true, card: first.json().data.card });
    const logs = await t.database.db.select().from(reviewLogs).where(eq(reviewLogs.id, body.review_id));
    expect(logs).toHaveLength(1);
    expect((await rowOf(item?.card.id as string))?.reps).toBe(1);
    // the id of one grade cannot be spent on another card
    const other = (await due(learner.token)).items.find((i) => i.card.id !== item?.card.id);
    expect((await grade(learner.token, { ...body, card_id: other?.card.id })).statusCode).toBe(409);
  });

  it("another learner's card is not found; a future time counts as now", async () => {
    const owner = await t.createUser();
    const other = await t.createUser();
    await markDone(owner.token, fx.free.id);
    const [item] = (await due(owner.token)).items;
    const stolen = await grade(other.token, { review_id: randomUUID(), card_id: item?.card.id, rating: 3 });
    expect(stolen.statusCode).toBe(404);
    const future = await grade(owner.token, {
      review_id: randomUUID(),
      card_id: item?.card.id,
      rating: 3,
      reviewed_at: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    });
    expect(future.statusCode, future.body).toBe(200);
    expect(new Date(future.json().data.card.last_review).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("adds a single line once; a line of a lesson the learner cannot open is refused", async () => {
    const learner = await t.createUser();
    const [hola] = (
      await t.request({ method: "GET", url: `${base}/${fx.free.id}/cues`, token: admin })
    ).json().data.cues as { id: string }[];
    const add = () =>
      t.request({
        method: "POST",
        url: "/api/v1/review/cards",
        token: learner.token,
        payload: { cue_id: hola?.id },
      });
    expect((await add()).json().data.added).toBe(true);
    expect((await add()).json().data.added).toBe(false);
    expect((await due(learner.token)).counts).toEqual({ new: 1, due: 0 });
    const [paidCue] = (
      await t.request({ method: "GET", url: `${base}/${fx.paid.id}/cues`, token: admin })
    ).json().data.cues as { id: string }[];
    const refused = await t.request({
      method: "POST",
      url: "/api/v1/review/cards",
      token: learner.token,
      payload: { cue_id: paidCue?.id },
    });
    expect(refused.statusCode).toBe(403);
  });

  it("lines of a lesson the learner may no longer open are neither served, counted nor graded", async () => {
    const learner = await t.createUser();
    await makePremium(t, learner.id);
    expect((await markDone(learner.token, fx.paid.id)).statusCode).toBe(200);
    await markDone(learner.token, fx.free.id);
    const open = await due(learner.token);
    expect(open.counts.new).toBe(4);
    const paidItem = open.items.find((i) => i.lesson.id === fx.paid.id) as Item;

    // the subscription ends: the paid lesson's lines leave the served deck
    await t.database.db
      .update(customerPlans)
      .set({ status: "CANCELLED", accessUntil: new Date(Date.now() - 1000) })
      .where(eq(customerPlans.userId, learner.id));
    t.app.deps.changes.publish(`user:${learner.id}`);
    const closed = await due(learner.token);
    expect(closed.counts).toEqual({ new: 2, due: 0 });
    expect(closed.items.every((i) => i.lesson.id === fx.free.id)).toBe(true);
    const refused = await grade(learner.token, {
      review_id: randomUUID(),
      card_id: paidItem.card.id,
      rating: 3,
    });
    expect(refused.statusCode).toBe(403);
    const stats = await t.request({ method: "GET", url: "/api/v1/review/stats", token: learner.token });
    expect(stats.json().data.stats).toMatchObject({ total: 2, new: 2 });

    // a lesson made inactive by staff leaves it too
    await t.request({
      method: "PUT",
      url: `${base}/update-by-column/${fx.free.id}`,
      token: admin,
      payload: { column: "active", value: false },
    });
    expect((await due(learner.token)).counts).toEqual({ new: 0, due: 0 });
    await t.request({
      method: "PUT",
      url: `${base}/update-by-column/${fx.free.id}`,
      token: admin,
      payload: { column: "active", value: true },
    });
  });

  it("stats count the deck, what is learning, and today's grades (at 00:02 in Paris, the learner's midnight)", async () => {
    // two minutes past midnight in Paris on 16 January (UTC+1): the web app sends that midnight
    clock.set("2026-01-15T23:02:00Z");
    const parisMidnight = "2026-01-15T23:00:00.000Z";
    const statsOf = async (token: string, dayStart?: string) => {
      const query = dayStart ? `?day_start=${encodeURIComponent(dayStart)}` : "";
      const res = await t.request({ method: "GET", url: `/api/v1/review/stats${query}`, token });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.stats;
    };
    const learner = await t.createUser();
    await markDone(learner.token, fx.free.id);
    const [item] = (await due(learner.token)).items;
    // graded at 23:58 in Paris, the evening before
    const evening = await grade(learner.token, {
      review_id: randomUUID(),
      card_id: item?.card.id,
      rating: 3,
      reviewed_at: "2026-01-15T22:58:00Z",
    });
    expect(evening.statusCode, evening.body).toBe(200);
    // without the learner's midnight the day is UTC's (it began at 00:00Z): that grade is today's
    expect(await statsOf(learner.token)).toMatchObject({
      total: 2,
      new: 1,
      learning: 1,
      review: 0,
      reviewed_today: 1,
    });
    // from the learner's own midnight it was yesterday; a grade now is today's
    expect(await statsOf(learner.token, parisMidnight)).toMatchObject({
      reviewed_today: 0,
      day_start: parisMidnight,
    });
    await grade(learner.token, { review_id: randomUUID(), card_id: item?.card.id, rating: 3 });
    expect((await statsOf(learner.token, parisMidnight)).reviewed_today).toBe(1);
    // a minute later, the learner's next day, begun just then
    clock.set("2026-01-15T23:03:00Z");
    expect((await statsOf(learner.token, clock().toISOString())).reviewed_today).toBe(0);
  });

  it("a learner removes one card from their deck; another learner cannot", async () => {
    const learner = await t.createUser();
    const other = await t.createUser();
    await markDone(learner.token, fx.free.id);
    const [first, second] = (await due(learner.token)).items;
    await grade(learner.token, { review_id: randomUUID(), card_id: first?.card.id, rating: 3 });
    const remove = (token: string | undefined, id: string) =>
      t.request({ method: "DELETE", url: `/api/v1/review/cards/${id}`, token });

    expect((await remove(undefined, first?.card.id as string)).statusCode).toBe(401);
    expect((await remove(other.token, first?.card.id as string)).statusCode).toBe(404);
    expect((await remove(learner.token, "not-a-uuid")).statusCode).toBe(400);
    const res = await remove(learner.token, first?.card.id as string);
    expect(res.statusCode, res.body).toBe(200);
    expect(await rowOf(first?.card.id as string)).toBeUndefined();
    expect((await remove(learner.token, first?.card.id as string)).statusCode).toBe(404);
    // the other line stays
    expect((await due(learner.token)).items.map((i) => i.card.id)).toEqual([second?.card.id]);
    const stats = await t.request({ method: "GET", url: "/api/v1/review/stats", token: learner.token });
    expect(stats.json().data.stats.total).toBe(1);

    // finishing the lesson again does not put the removed line back
    const undone = await t.request({
      method: "POST",
      url: `${base}/done-customer`,
      token: learner.token,
      payload: { lesson_id: fx.free.id, done: false },
    });
    expect(undone.statusCode, undone.body).toBe(200);
    expect((await markDone(learner.token, fx.free.id)).statusCode).toBe(200);
    expect((await due(learner.token)).items.map((i) => i.card.id)).toEqual([second?.card.id]);
    // adding it by hand from the transcript does, as a new card; then finishing keeps it
    const added = await t.request({
      method: "POST",
      url: "/api/v1/review/cards",
      token: learner.token,
      payload: { cue_id: first?.cue.id },
    });
    expect(added.json().data).toMatchObject({ added: true, card: { state: "new", reps: 0 } });
    expect((await markDone(learner.token, fx.free.id)).statusCode).toBe(200);
    expect((await due(learner.token)).items.map((i) => i.cue.id).sort()).toEqual(
      [first?.cue.id, second?.cue.id].sort(),
    );
  });

  it("asks to sign in", async () => {
    for (const url of ["/api/v1/review/due", "/api/v1/review/stats"])
      expect((await t.request({ method: "GET", url })).statusCode).toBe(401);
  });
});
