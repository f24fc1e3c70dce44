import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { testClock } from "../../../test/helpers/clock";
import { courseWithLessons } from "../../../test/helpers/learning";
import { EVERY_POWER } from "../../../test/helpers/principal";
import {
  customerPlans,
  lessonCues,
  lessonProgress,
  listeningMinutes,
  payments,
  plans,
  purchases,
  reviewCards,
  reviewLogs,
  userRoles,
  users,
} from "../../db/schema";
import { periodStarts } from "./overview";

// The staff landing page's figures on known rows at a known time: Wednesday 11 March 2026, noon UTC
// (the week from Monday 9 March, the month from 1 March, active learners since 9 February).
const NOW = "2026-03-11T12:00:00Z";
const at = (iso: string) => new Date(iso);
const clock = testClock();
let t: TestContext;
let admin: string;

beforeAll(async () => {
  clock.set(NOW);
  t = await buildTestApp({ clock });
  admin = await t.adminToken();
  const course = await courseWithLessons(t, admin);
  const [u1, u2, u3, u4] = (await Promise.all([1, 2, 3, 4].map(() => t.createUser()))).map((u) => u.id) as [
    string,
    string,
    string,
    string,
  ];
  const { db } = t.database;
  // u1-u3 signed up in February, u4 on 5 March
  for (const [id, created] of [
    [u1, "2026-02-01T10:00:00Z"],
    [u2, "2026-02-10T10:00:00Z"],
    [u3, "2026-02-27T23:59:00Z"],
    [u4, "2026-03-05T08:00:00Z"],
  ] as const) {
    await db
      .update(users)
      .set({ createdAt: at(created) })
      .where(eq(users.id, id));
    await db
      .update(userRoles)
      .set({ userCreatedAt: at(created) })
      .where(eq(userRoles.userId, id));
  }
  // u1 finishes a lesson on Tuesday 10 March (this week) and one on Friday 6 March (last week);
  // u2 opened a lesson on 2 March; u3 listened on 1 January (not active any more); u4 reviewed today
  await db.insert(lessonProgress).values([
    {
      userId: u1,
      lessonId: course.free.id,
      createdAt: at("2026-03-10T09:00:00Z"),
      updatedAt: at("2026-03-10T09:10:00Z"),
      done: true,
      doneAt: at("2026-03-10T09:10:00Z"),
    },
    {
      userId: u1,
      lessonId: course.paid.id,
      createdAt: at("2026-03-06T09:00:00Z"),
      updatedAt: at("2026-03-06T09:10:00Z"),
      done: true,
      doneAt: at("2026-03-06T09:10:00Z"),
    },
    {
      userId: u2,
      lessonId: course.free.id,
      createdAt: at("2026-03-02T20:00:00Z"),
      updatedAt: at("2026-03-02T20:05:00Z"),
    },
  ]);
  await db
    .insert(listeningMinutes)
    .values({ userId: u3, lessonId: course.free.id, minute: at("2026-01-01T10:00:00Z"), seconds: 60 });
  const [cue] = await db.select().from(lessonCues).where(eq(lessonCues.lessonId, course.free.id));
  const [card] = await db
    .insert(reviewCards)
    .values({ userId: u4, cueId: cue?.id as string, lessonId: course.free.id })
    .returning();
  await db.insert(reviewLogs).values({
    id: randomUUID(),
    userId: u4,
    cardId: card?.id as string,
    rating: 3,
    state: 0,
    reviewedAt: at("2026-03-11T10:00:00Z"),
    dueBefore: at("2026-03-11T10:00:00Z"),
    dueAfter: at("2026-03-11T10:10:00Z"),
  });
  // live subscriptions: u1 monthly 10 €, u2 yearly 120 € (10 € a month); u3's monthly one is cancelled
  const [monthly, yearly, once] = await db
    .insert(plans)
    .values([
      { name: "Monthly", nameFr: "Mensuel", amount: 1000, interval: "month" },
      { name: "Yearly", nameFr: "Annuel", amount: 12000, interval: "year" },
      { name: "Course", nameFr: "Cours", amount: 3000, interval: "once" },
    ])
    .returning();
  const subscriptions = await db
    .insert(customerPlans)
    .values([
      { userId: u1, planId: monthly?.id as string, status: "ACTIVE", provider: "demo" },
      { userId: u2, planId: yearly?.id as string, status: "ACTIVE", provider: "demo" },
      {
        userId: u3,
        planId: monthly?.id as string,
        status: "CANCELLED",
        provider: "demo",
        cancelledAt: at("2026-03-03T09:00:00Z"),
      },
    ])
    .returning();
  // a course bought once by u3 (30 €, kept) and one by u4 (25 €, refunded)
  const bought = await db
    .insert(purchases)
    .values(
      [
        { userId: u3, status: "PAID" as const, amount: 3000, paidAt: at("2026-03-04T10:00:00Z") },
        {
          userId: u4,
          status: "REFUNDED" as const,
          amount: 2500,
          paidAt: at("2026-03-05T10:00:00Z"),
          refundedAt: at("2026-03-06T10:00:00Z"),
        },
      ].map((p, i) => ({
        ...p,
        planId: once?.id as string,
        courseIds: [course.course.id],
        provider: "demo",
        providerOrderId: `order-${i}`,
        listAmount: p.amount,
        currency: "EUR",
      })),
    )
    .returning();
  const payment = (p: {
    userId: string;
    amount: number;
    paidAt: string;
    status?: "PAID" | "REFUND_DUE";
  }) => ({
    userId: p.userId,
    amount: p.amount,
    paidAt: at(p.paidAt),
    status: p.status ?? "PAID",
    currency: "EUR",
    provider: "demo",
    providerPaymentId: randomUUID(),
  });
  await db.insert(payments).values([
    // this month: u1's 10 € and u3's course (30 €); u4's refunded course and a payment due back do not count
    {
      ...payment({ userId: u1, amount: 1000, paidAt: "2026-03-03T10:00:00Z" }),
      customerPlanId: subscriptions[0]?.id,
    },
    { ...payment({ userId: u3, amount: 3000, paidAt: "2026-03-04T10:00:00Z" }), purchaseId: bought[0]?.id },
    { ...payment({ userId: u4, amount: 2500, paidAt: "2026-03-05T10:00:00Z" }), purchaseId: bought[1]?.id },
    {
      ...payment({ userId: u3, amount: 1000, paidAt: "2026-03-03T11:00:00Z", status: "REFUND_DUE" }),
      customerPlanId: subscriptions[2]?.id,
    },
    // last month: u2's year
    {
      ...payment({ userId: u2, amount: 12000, paidAt: "2026-02-20T10:00:00Z" }),
      customerPlanId: subscriptions[1]?.id,
    },
  ]);
  const { roles } = t.app.deps.services;
  await roles.createRole(
    { title: "TEACHER_DESK", permissions: ["dashboard.admin", "analytics.read"] },
    EVERY_POWER,
  );
  await roles.createRole(
    { title: "SALES_DESK", permissions: ["dashboard.admin", "customer-plans.manage", "users.read"] },
    EVERY_POWER,
  );
}, 120_000);
afterAll(() => t.close());

const overview = (token: string) => t.request({ method: "GET", url: "/api/v1/analytics/overview", token });

describe("GET /v1/analytics/overview", () => {
  it("counts the business live: active learners, lessons done this week, sign-ups, MRR and revenue of the month", async () => {
    const res = await overview(admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.overview).toEqual({
      active_learners: 3,
      lessons_done_week: 1,
      new_learners_month: 1,
      mrr: 2000,
      revenue_month: 4000,
      currency: "EUR",
      week_start: "2026-03-09",
      month_start: "2026-03-01",
    });
  });

  it("shows each figure only to staff who may open its page: no money without billing access", async () => {
    const teacher = await t.createUser({ role: "TEACHER_DESK" });
    expect((await overview(teacher.token)).json().data.overview).toMatchObject({
      active_learners: 3,
      lessons_done_week: 1,
      new_learners_month: null,
      mrr: null,
      revenue_month: null,
    });
    const sales = await t.createUser({ role: "SALES_DESK" });
    expect((await overview(sales.token)).json().data.overview).toMatchObject({
      active_learners: null,
      lessons_done_week: null,
      new_learners_month: 1,
      mrr: 2000,
      revenue_month: 4000,
    });
    const learner = await t.createUser();
    expect((await overview(learner.token)).statusCode).toBe(403);
  });

  it("starts the week on Monday and the month on the 1st, in UTC", () => {
    const starts = (iso: string) => {
      const { week, month } = periodStarts(at(iso));
      return [week.toISOString().slice(0, 10), month.toISOString().slice(0, 10)];
    };
    expect(starts("2026-03-11T12:00:00Z")).toEqual(["2026-03-09", "2026-03-01"]);
    expect(starts("2026-03-09T00:00:00Z")).toEqual(["2026-03-09", "2026-03-01"]);
    expect(starts("2026-03-08T23:59:59Z")).toEqual(["2026-03-02", "2026-03-01"]);
    expect(starts("2026-03-01T05:00:00Z")).toEqual(["2026-02-23", "2026-03-01"]);
  });
});
