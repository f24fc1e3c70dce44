import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons } from "../../../test/helpers/learning";
import {
  customerPlans,
  events,
  lessonCues,
  lessonProgress,
  listeningMinutes,
  plans,
  registrations,
  reviewCards,
  reviewLogs,
} from "../../db/schema";

// Staff analytics: known rows in the source tables at known times → exact figures per day, week
// and month, the funnel per course, MRR and churn; a range, CSV, and runs that add only what is new.
let t: TestContext;
let admin: string;
let course: Awaited<ReturnType<typeof courseWithLessons>>;
const at = (iso: string) => new Date(iso);
// Monday 2 and Tuesday 3 March 2026, then Tuesday 10 March
const D1 = "2026-03-02";
const D2 = "2026-03-03";
const D3 = "2026-03-10";
let learners: { id: string; token: string }[];

/** A progress row started at `started`; finished at `doneAt` (its last update) when given. */
function progressRow(
  userId: string,
  lessonId: string,
  started: string,
  opts: { doneAt?: string; lastPosition?: number } = {},
) {
  const last = at(opts.doneAt ?? started);
  return {
    userId,
    lessonId,
    createdAt: at(started),
    updatedAt: last,
    ...(opts.doneAt ? { done: true, doneAt: last } : {}),
    ...(opts.lastPosition === undefined ? {} : { lastPosition: opts.lastPosition }),
  };
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  course = await courseWithLessons(t, admin);
  learners = [await t.createUser(), await t.createUser(), await t.createUser()];
  const [u1, u2, u3] = learners.map((l) => l.id) as [string, string, string];
  const { db } = t.database;
  // u1 finishes both lessons on D1 and D2; u2 starts the free lesson on D2
  await db
    .insert(lessonProgress)
    .values([
      progressRow(u1, course.free.id, `${D1}T09:50:00Z`, { doneAt: `${D1}T10:00:00Z` }),
      progressRow(u1, course.paid.id, `${D2}T07:55:00Z`, { doneAt: `${D2}T08:00:00Z` }),
      progressRow(u2, course.free.id, `${D2}T20:00:00Z`, { lastPosition: 4 }),
    ]);
  // what their players reported: u1 45 s and a full minute on D1, u2 30 s on D2
  await db.insert(listeningMinutes).values([
    { userId: u1, lessonId: course.free.id, minute: at(`${D1}T09:55:00Z`), seconds: 45 },
    { userId: u1, lessonId: course.free.id, minute: at(`${D1}T09:56:00Z`), seconds: 60 },
    { userId: u2, lessonId: course.free.id, minute: at(`${D2}T19:59:00Z`), seconds: 30 },
  ]);
  // u3 reviews one line on D3
  const [cue] = await db.select().from(lessonCues).where(eq(lessonCues.lessonId, course.free.id));
  const [card] = await db
    .insert(reviewCards)
    .values({ userId: u3, cueId: cue?.id as string, lessonId: course.free.id })
    .returning();
  await db.insert(reviewLogs).values({
    id: randomUUID(),
    userId: u3,
    cardId: card?.id as string,
    rating: 3,
    state: 0,
    reviewedAt: at(`${D3}T12:00:00Z`),
    dueBefore: at(`${D3}T12:00:00Z`),
    dueAfter: at(`${D3}T12:10:00Z`),
  });
  // paid subscriptions: u1 monthly 10 €, u2 yearly 120 € (10 € a month), u3 monthly then cancelled on D3
  const [monthly, yearly] = await db
    .insert(plans)
    .values([
      { name: "Monthly", nameFr: "Mensuel", amount: 1000, interval: "month" },
      { name: "Yearly", nameFr: "Annuel", amount: 12000, interval: "year" },
    ])
    .returning();
  await db.insert(customerPlans).values([
    {
      userId: u1,
      planId: monthly?.id as string,
      status: "ACTIVE",
      provider: "demo",
      startedAt: at(`${D1}T11:00:00Z`),
    },
    {
      userId: u2,
      planId: yearly?.id as string,
      status: "ACTIVE",
      provider: "demo",
      startedAt: at(`${D2}T11:00:00Z`),
    },
    {
      userId: u3,
      planId: monthly?.id as string,
      status: "CANCELLED",
      provider: "demo",
      startedAt: at(`${D1}T12:00:00Z`),
      cancelledAt: at(`${D3}T09:00:00Z`),
    },
  ]);
  // an event on D2: two places booked by u1, one cancelled by u2
  const [event] = await db
    .insert(events)
    .values({
      slug: "club-analytics",
      titleFr: "Club",
      titleEn: "Club",
      kind: "online",
      startsAt: at(`${D2}T18:00:00Z`),
      endsAt: at(`${D2}T19:00:00Z`),
      capacity: 10,
    })
    .returning();
  await db.insert(registrations).values([
    { eventId: event?.id as string, userId: u1, places: 2, status: "BOOKED" },
    { eventId: event?.id as string, userId: u2, places: 1, status: "CANCELLED" },
  ]);
  await t.app.deps.services.analytics.rollup(at(`${D3}T13:00:00Z`));
});
afterAll(() => t.close());

const read = (query: string, token = admin) =>
  t.request({ method: "GET", url: `/api/v1/analytics?${query}`, token });

describe("figures", () => {
  it("counts each day, week and month from the rolled-up tables", async () => {
    const res = await read(`from=${D1}&to=${D3}`);
    expect(res.statusCode, res.body).toBe(200);
    const a = res.json().data.analytics;
    expect(a.days).toHaveLength(9);
    const day = (d: string) => a.days.find((x: { day: string }) => x.day === d);
    // minutes are the seconds the players reported (1 min 45 s on D1, 30 s on D2), not lesson lengths
    expect(day(D1)).toEqual({
      day: D1,
      active: 1,
      minutes: 1.8,
      lessons_done: 1,
      reviews: 0,
      new_paid: 2,
      churned: 0,
      mrr: null,
      attendance: 0,
    });
    expect(day(D2)).toEqual({
      day: D2,
      active: 2,
      minutes: 0.5,
      lessons_done: 1,
      reviews: 0,
      new_paid: 1,
      churned: 0,
      mrr: null,
      attendance: 2,
    });
    expect(day(D3)).toEqual({
      day: D3,
      active: 1,
      minutes: 0,
      lessons_done: 0,
      reviews: 1,
      new_paid: 0,
      churned: 1,
      mrr: 2000,
      attendance: 0,
    });
    expect(day("2026-03-05")).toMatchObject({ active: 0, reviews: 0, mrr: null });
    expect(a.weeks).toEqual([
      { start: D1, active: 2 },
      { start: "2026-03-09", active: 1 },
    ]);
    expect(a.months).toEqual([{ start: "2026-03-01", active: 3 }]);
    expect(a.mrr).toBe(2000);
    expect(a.currency).toBe("EUR");
    expect(a.rolled_until).toBe(`${D3}T13:00:00.000Z`);
    const funnel = a.funnel.find((c: { course_id: string }) => c.course_id === course.course.id);
    expect(
      funnel.lessons.map((l: { lesson_id: string; learners: number }) => [l.lesson_id, l.learners]),
    ).toEqual([
      [course.free.id, 2],
      [course.paid.id, 1],
    ]);
  });

  it("keeps to the range asked", async () => {
    const a = (await read(`from=${D2}&to=${D2}`)).json().data.analytics;
    expect(a.days).toEqual([expect.objectContaining({ day: D2, active: 2, attendance: 2 })]);
    expect(a.weeks).toEqual([{ start: D1, active: 2 }]);
  });

  it("adds only what is new at the next run, and a second run changes nothing", async () => {
    const { db } = t.database;
    const [, , u3] = learners.map((l) => l.id) as [string, string, string];
    await db.insert(lessonProgress).values(progressRow(u3, course.free.id, `${D3}T14:00:00Z`));
    await t.app.deps.services.analytics.rollup(at(`${D3}T15:00:00Z`));
    await t.app.deps.services.analytics.rollup(at(`${D3}T15:05:00Z`));
    const a = (await read(`from=${D3}&to=${D3}`)).json().data.analytics;
    // u3 both reviewed and listened on D3: one active learner still
    expect(a.days[0]).toMatchObject({ active: 1, reviews: 1 });
    const funnel = a.funnel.find((c: { course_id: string }) => c.course_id === course.course.id);
    expect(funnel.lessons[0].learners).toBe(3);
    expect(funnel.lessons[1].learners).toBe(1);
  });
});

describe("CSV", () => {
  it("exports the days of the range, one line each", async () => {
    const res = await t.request({
      method: "GET",
      url: `/api/v1/analytics/csv?from=${D1}&to=${D2}`,
      token: admin,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="parlons-analytics-${D1}-${D2}.csv"`,
    );
    expect(res.body.split("\r\n")).toEqual([
      "day,active,minutes,lessons_done,reviews,new_paid,churned,mrr,attendance",
      `${D1},1,1.8,1,0,2,0,,0`,
      `${D2},2,0.5,1,0,1,0,,2`,
      "",
    ]);
  });
});

describe("rules", () => {
  it("answers staff with analytics.read only", async () => {
    const learner = learners[0] as { token: string };
    expect((await read(`from=${D1}&to=${D2}`, learner.token)).statusCode).toBe(403);
    expect((await t.request({ method: "GET", url: "/api/v1/analytics" })).statusCode).toBe(401);
    expect(
      (await t.request({ method: "POST", url: "/api/v1/analytics/refresh", token: admin })).statusCode,
    ).toBe(200);
  });

  it("refuses a range backwards, longer than a year, or not made of dates with 422", async () => {
    for (const query of [`from=${D2}&to=${D1}`, "from=2025-01-01&to=2026-03-01", "from=yesterday"]) {
      const res = await read(query);
      expect(res.statusCode, query).toBe(422);
      expect(res.json().code).toBe("VALIDATION_FAILED");
    }
  });
});

describe("hard lines", () => {
  interface Line {
    text: string;
    grades: number;
    again: number;
    hard: number;
    learners: number;
    failure_rate: number | null;
    grades_per_learner: number | null;
  }
  const linesOf = async (courseId: string, token = admin) =>
    t.request({ method: "GET", url: `/api/v1/analytics/courses/${courseId}/lines`, token });

  it("rolls each line's grades up: failures, hard, learners, grades per learner; later grades add once", async () => {
    const fx = await courseWithLessons(t, admin);
    const texts = ["Uno.", "Dos.", "Tres."];
    const put = await t.request({
      method: "PUT",
      url: `/api/v1/courses/${fx.course.id}/lessons/${fx.free.id}/cues`,
      token: admin,
      payload: { cues: texts.map((text, i) => ({ start: i * 3, end: i * 3 + 2, text })) },
    });
    expect(put.statusCode, put.body).toBe(200);
    const cues = (put.json().data.cues as { id: string; text: string }[]).map((c) => c.id);
    const { db } = t.database;
    const [u1, u2] = learners.map((l) => l.id) as [string, string];
    const cards = new Map<string, string>();
    const cardOf = async (userId: string, cueId: string) => {
      const key = `${userId}:${cueId}`;
      const known = cards.get(key);
      if (known) return known;
      const [card] = await db.insert(reviewCards).values({ userId, cueId, lessonId: fx.free.id }).returning();
      cards.set(key, card?.id as string);
      return card?.id as string;
    };
    /** A grade as the review deck writes it (review grade or exercise result): state 0 for a card's first. */
    const grade = async (userId: string, cueId: string, rating: number, first: boolean) =>
      db.insert(reviewLogs).values({
        id: randomUUID(),
        userId,
        cardId: await cardOf(userId, cueId),
        rating,
        state: first ? 0 : 1,
        reviewedAt: new Date(),
        dueBefore: new Date(),
        dueAfter: new Date(),
      });
    // line 1: u1 fails then gets it, u2 fails; line 2: u1 good; line 3: u2 hard
    await grade(u1, cues[0] as string, 1, true);
    await grade(u1, cues[0] as string, 3, false);
    await grade(u2, cues[0] as string, 1, true);
    await grade(u1, cues[1] as string, 3, true);
    await grade(u2, cues[2] as string, 2, true);
    // a word card taken from line 2 is the word's, not the line's
    const [wordCard] = await db
      .insert(reviewCards)
      .values({ userId: u2, cueId: cues[1] as string, lessonId: fx.free.id, word: "dos", wordLanguage: "es" })
      .returning();
    await db.insert(reviewLogs).values({
      id: randomUUID(),
      userId: u2,
      cardId: wordCard?.id as string,
      rating: 1,
      state: 0,
      reviewedAt: new Date(),
      dueBefore: new Date(),
      dueAfter: new Date(),
    });
    await t.app.deps.services.analytics.rollup();
    await t.app.deps.services.analytics.rollup();

    const res = await linesOf(fx.course.id);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data.lines;
    expect(data.course_id).toBe(fx.course.id);
    expect(data.lessons.map((l: { lesson_id: string }) => l.lesson_id)).toEqual([fx.free.id, fx.paid.id]);
    const pick = (l: Line) => [
      l.text,
      l.grades,
      l.again,
      l.hard,
      l.learners,
      l.failure_rate,
      l.grades_per_learner,
    ];
    expect(data.lessons[0].lines.map(pick)).toEqual([
      ["Uno.", 3, 2, 0, 2, 0.667, 1.5],
      ["Dos.", 1, 0, 0, 1, 0, 1],
      ["Tres.", 1, 0, 1, 1, 0, 1],
    ]);
    // the paid lesson's line, never graded: no rate rather than 0 %
    expect(data.lessons[1].lines.map(pick)).toEqual([["¿Cuánto cuesta?", 0, 0, 0, 0, null, null]]);

    // a grade written after the run is added by the next one, once
    await grade(u2, cues[0] as string, 3, false);
    await t.app.deps.services.analytics.rollup();
    const after = (await linesOf(fx.course.id)).json().data.lines.lessons[0].lines[0];
    expect(pick(after)).toEqual(["Uno.", 4, 2, 0, 2, 0.5, 2]);
  });

  it("answers staff with analytics.read only, and 404 for a course that does not exist", async () => {
    const learner = learners[0] as { token: string };
    expect((await linesOf(course.course.id, learner.token)).statusCode).toBe(403);
    expect((await linesOf(randomUUID())).statusCode).toBe(404);
  });
});
