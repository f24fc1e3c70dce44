import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { outboxWorkerOf } from "../../../test/helpers/mail-workers";
import {
  courses,
  lessonCues,
  lessonProgress,
  lessons,
  listeningMinutes,
  mailCampaigns,
  mailDeliveries,
  mailOutbox,
  reviewCards,
  reviewLogs,
  users,
} from "../../db/schema";
import type { Mailer } from "../../integrations/mail/mailer";
import { startMailWorker } from "../../jobs/mail-worker";

// Campaign audiences (a course's learners, learners inactive for N days), the count that is the
// queued total, the test send to oneself, and the figures per campaign (queued, sent, failed,
// unsubscribed through the campaign's own link or before their mail went out).
let t: TestContext;
let admin: string;
let learner: string;
const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);
const course = { a: "", b: "" };
const people: Record<"a" | "b" | "c" | "d" | "e" | "f" | "g" | "h" | "i", string> = {
  a: "",
  b: "",
  c: "",
  d: "",
  e: "",
  f: "",
  g: "",
  h: "",
  i: "",
};

async function makeCourse(slug: string) {
  const { db } = t.database;
  const [row] = await db
    .insert(courses)
    .values({ slug, titleFr: slug, titleEn: slug, targetLanguage: "es", level: "A1", active: true })
    .returning();
  const [lesson] = await db
    .insert(lessons)
    .values({ courseId: row?.id as string, titleFr: "L", titleEn: "L", free: true, active: true })
    .returning();
  return { id: row?.id as string, lesson: lesson?.id as string };
}

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  learner = (await t.createUser({ email: "not-staff@test.local" })).token;
  const { db } = t.database;
  const A = await makeCourse("course-a");
  const B = await makeCourse("course-b");
  course.a = A.id;
  course.b = B.id;
  const make = async (
    key: keyof typeof people,
    o: { speak?: "FR" | "EN"; status?: "ACTIVE" | "PENDING" | "DISABLED"; createdDaysAgo: number },
  ) => {
    const row = await t.app.deps.services.users.createUser({
      email: `${key}@campaigns.test`,
      passwordHash: "x",
      fullName: `Person ${key.toUpperCase()}`,
      status: o.status ?? "ACTIVE",
      role: "CUSTOMER",
      speak: o.speak ?? "FR",
    });
    await db
      .update(users)
      .set({ createdAt: ago(o.createdDaysAgo) })
      .where(eq(users.id, row.id));
    people[key] = row.id;
    return row.id;
  };
  const progress = (userId: string, lessonId: string, daysAgo: number) =>
    db.insert(lessonProgress).values({ userId, lessonId, createdAt: ago(daysAgo), updatedAt: ago(daysAgo) });
  // a: EN, started course A, last progress 40 days ago
  await progress(await make("a", { speak: "EN", createdDaysAgo: 100 }), A.lesson, 40);
  // b: started course A, progress 2 days ago
  await progress(await make("b", { createdDaysAgo: 100 }), A.lesson, 2);
  // c: course B 100 days ago, but listened 5 days ago
  const c = await make("c", { createdDaysAgo: 200 });
  await progress(c, B.lesson, 100);
  await db.insert(listeningMinutes).values({ userId: c, lessonId: B.lesson, minute: ago(5), seconds: 30 });
  // d: no progress row, but reviewed a line 3 days ago
  const d = await make("d", { createdDaysAgo: 100 });
  const [cue] = await db
    .insert(lessonCues)
    .values({ lessonId: A.lesson, position: 0, start: 0, end: 1, text: "Hola" })
    .returning();
  const [card] = await db
    .insert(reviewCards)
    .values({ userId: d, cueId: cue?.id as string, lessonId: A.lesson })
    .returning();
  await db.insert(reviewLogs).values({
    id: randomUUID(),
    userId: d,
    cardId: card?.id as string,
    rating: 3,
    state: 0,
    reviewedAt: ago(3),
    dueBefore: ago(3),
    dueAfter: ago(2),
  });
  // e: an old account that never studied; f: a new account that never studied
  await make("e", { createdDaysAgo: 100 });
  await make("f", { createdDaysAgo: 2 });
  // g: learner of A, inactive, but refused news; h disabled, i pending: never mailed
  const g = await make("g", { createdDaysAgo: 100 });
  await progress(g, A.lesson, 40);
  await t.app.deps.services.mailPreferences.update(g, { news: false });
  await progress(await make("h", { status: "DISABLED", createdDaysAgo: 100 }), A.lesson, 40);
  await progress(await make("i", { status: "PENDING", createdDaysAgo: 100 }), A.lesson, 40);
});
afterAll(() => t.close());

beforeEach(async () => {
  await t.database.db.delete(mailCampaigns);
  await t.database.db.delete(mailOutbox);
  t.mailbox.messages.length = 0;
});

type Method = "GET" | "POST";
const call = (method: Method, url: string, payload?: object, token: string = admin) =>
  t.request({ method, url: `/api${url}`, payload, token });

const texts = {
  subject_fr: "Des nouvelles, {{full_name}}",
  subject_en: "News for you, {{full_name}}",
  body_fr: "Bonjour {{full_name}} ({{email}}), formule {{plan_name}}",
  body_en: "Hello {{full_name}} ({{email}}), plan {{plan_name}}",
};

const count = async (audience: object) => {
  const res = await call("POST", "/v1/send-mail/count", { audience });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.count as number;
};

const send = async (audience: object) => {
  const res = await call("POST", "/v1/send-mail/send", { ...texts, audience });
  expect(res.statusCode, res.body).toBe(202);
  return res.json().data.campaign as { id: string; total: number };
};

const worker = (mailer: Mailer = t.mailbox) =>
  startMailWorker({ queue: t.app.deps.services.mailDeliveries, mailer, log: t.app.log, schedule: false });

const recipientsOf = async (campaignId: string) =>
  (
    await t.database.db
      .select({ userId: mailDeliveries.userId })
      .from(mailDeliveries)
      .where(eq(mailDeliveries.campaignId, campaignId))
  )
    .map((r) => r.userId)
    .sort();

const ids = (...keys: (keyof typeof people)[]) => keys.map((k) => people[k]).sort();

const campaign = async (id: string) => (await call("GET", `/v1/send-mail/${id}`)).json().data.campaign;

describe("audiences", () => {
  it("a course's learners: who has progress in one of its lessons, active and not unsubscribed", async () => {
    expect(await count({ course_id: course.a })).toBe(2);
    expect(await count({ course_id: course.b })).toBe(1);
    expect(await count({ course_id: course.a, speak: "EN" })).toBe(1);
    expect(await count({ course_id: course.a, plan: "premium" })).toBe(0);
    expect(await count({ course_id: course.a, role: "CUSTOMER", plan: "free" })).toBe(2);
  });

  it("inactive for N days: an account that old with no progress, listening or review since", async () => {
    // a (progress 40 days ago) and e (never studied); b, c, d studied lately, f is new, g refused news
    expect(await count({ inactive_days: 30 })).toBe(2);
    expect(await count({ inactive_days: 60 })).toBe(1);
    expect(await count({ inactive_days: 30, course_id: course.a })).toBe(1);
    expect(await count({ inactive_days: 30, course_id: course.a, speak: "FR" })).toBe(0);
    expect(await count({ inactive_days: 30, role: "CUSTOMER", plan: "free", speak: "EN" })).toBe(1);
    expect(await count({ inactive_days: 365 })).toBe(0);
  });

  it("queues exactly the people counted, and mails nobody unsubscribed, inactive or not matching", async () => {
    const audiences = [
      { course_id: course.a },
      { course_id: course.b },
      { inactive_days: 30 },
      { inactive_days: 30, course_id: course.a },
      { inactive_days: 60, speak: "FR" },
    ];
    const expected = [ids("a", "b"), ids("c"), ids("a", "e"), ids("a"), ids("e")];
    for (const [index, audience] of audiences.entries()) {
      const counted = await count(audience);
      const queued = await send(audience);
      expect(queued.total, JSON.stringify(audience)).toBe(counted);
      expect(await recipientsOf(queued.id), JSON.stringify(audience)).toEqual(expected[index]);
    }
    await worker().runOnce();
    const mailed = new Set(t.mailbox.messages.map((m) => m.to));
    expect([...mailed].sort()).toEqual(["a", "b", "c", "e"].map((k) => `${k}@campaigns.test`));
    for (const never of ["d", "f", "g", "h", "i"]) expect(mailed.has(`${never}@campaigns.test`)).toBe(false);
  });

  it("refuses an unknown course and days outside 1–365 with a message on the field", async () => {
    for (const route of ["/v1/send-mail/count", "/v1/send-mail/send", "/v1/send-mail"]) {
      const audience = { course_id: randomUUID() };
      const unknown = await call(
        "POST",
        route,
        route.endsWith("count") ? { audience } : { ...texts, audience },
      );
      expect(unknown.statusCode, route).toBe(422);
      expect(unknown.json().errors).toEqual({ "audience.course_id": ["Unknown course"] });
    }
    for (const days of [0, 366, 1.5, "7"]) {
      const res = await call("POST", "/v1/send-mail/count", { audience: { inactive_days: days } });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(["audience.inactive_days"]);
    }
    const notId = await call("POST", "/v1/send-mail/count", { audience: { course_id: "course-a" } });
    expect(notId.json().errors).toEqual({ "audience.course_id": ["Choose a course from the list"] });
    expect(await t.database.db.select().from(mailCampaigns)).toHaveLength(0);
  });
});

describe("test send to oneself", () => {
  it("goes to the caller only, in their language, with their values, marked as a test, once per minute", async () => {
    const res = await call("POST", "/v1/send-mail/test", texts);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toEqual({
      to: "admin@test.local",
      subject: "[Essai] Des nouvelles, Admin",
      queued: true,
    });
    // a double click queues nothing more
    expect((await call("POST", "/v1/send-mail/test", texts)).json().data.queued).toBe(false);
    await outboxWorkerOf(t).runOnce();
    expect(t.mailbox.messages.map((m) => [m.to, m.subject])).toEqual([
      ["admin@test.local", "[Essai] Des nouvelles, Admin"],
    ]);
    const mail = t.mailbox.last("admin@test.local");
    expect(mail?.text).toContain("Bonjour Admin (admin@test.local), formule");
    expect(mail?.text).toContain("Se désabonner des nouvelles de Parlons");
    expect(mail?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    // no campaign was made by a test
    expect(await t.database.db.select().from(mailCampaigns)).toHaveLength(0);
  });

  it("in English for an English reader; a campaign's test leaves its status and figures alone", async () => {
    const { db } = t.database;
    const [me] = await db.select().from(users).where(eq(users.email, "admin@test.local"));
    await db
      .update(users)
      .set({ speak: "EN" })
      .where(eq(users.id, me?.id as string));
    try {
      const draft = (
        await call("POST", "/v1/send-mail", { ...texts, audience: { course_id: course.a } })
      ).json().data.campaign;
      const queued = await send({ course_id: course.a });
      const before = [await campaign(draft.id), await campaign(queued.id)];
      for (const id of [draft.id, queued.id]) {
        const res = await call("POST", "/v1/send-mail/test", { campaign_id: id });
        expect(res.statusCode, res.body).toBe(202);
        expect(res.json().data.subject).toBe("[Test] News for you, Admin");
      }
      expect([await campaign(draft.id), await campaign(queued.id)]).toEqual(before);
      expect(await recipientsOf(draft.id)).toEqual([]);
      expect(await recipientsOf(queued.id)).toEqual(ids("a", "b"));
      // the two tests have the same text: within the minute, one mail
      await outboxWorkerOf(t).runOnce();
      expect(t.mailbox.messages.map((m) => m.to)).toEqual(["admin@test.local"]);
      expect(t.mailbox.last("admin@test.local")?.text).toContain("Hello Admin (admin@test.local)");
    } finally {
      await db
        .update(users)
        .set({ speak: "FR" })
        .where(eq(users.id, me?.id as string));
    }
  });

  it("needs mail.manage, a known template or campaign, and valid texts", async () => {
    expect((await call("POST", "/v1/send-mail/test", texts, learner)).statusCode).toBe(403);
    const template = await call("POST", "/v1/send-mail/test", { template_id: randomUUID() });
    expect(template.statusCode).toBe(422);
    expect(Object.keys(template.json().errors)).toEqual(["template_id"]);
    expect((await call("POST", "/v1/send-mail/test", { campaign_id: randomUUID() })).statusCode).toBe(404);
    const bad = await call("POST", "/v1/send-mail/test", { ...texts, body_en: "{{nope}}" });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(["body_en"]);
    expect(await t.database.db.select().from(mailOutbox)).toHaveLength(0);
  });
});

describe("figures per campaign", () => {
  it("count sent and failed deliveries, and unsubscribes through the campaign's own link once", async () => {
    const queued = await send({ course_id: course.a });
    expect(await campaign(queued.id)).toMatchObject({ total: 2, sent: 0, failed: 0, unsubscribed: 0 });
    const bouncing: Mailer = {
      ...t.mailbox,
      async send(message) {
        if (message.to === "b@campaigns.test") throw new Error("550 no such mailbox");
        return t.mailbox.send(message);
      },
    };
    const w = worker(bouncing);
    const now = Date.now();
    await w.runOnce(new Date(now));
    expect(await campaign(queued.id)).toMatchObject({ status: "SENDING", sent: 1, failed: 0 });
    await w.runOnce(new Date(now + 31_000));
    await w.runOnce(new Date(now + 200_000));
    expect(await campaign(queued.id)).toMatchObject({
      status: "SENT",
      total: 2,
      sent: 1,
      failed: 1,
      unsubscribed: 0,
    });

    // a's mail names the campaign in its one-click link
    const link = t.mailbox.last("a@campaigns.test")?.headers?.["List-Unsubscribe"]?.slice(1, -1) ?? "";
    expect(link).toContain(`.news.${queued.id}.`);
    const url = link.replace("http://parlons.test", "");
    expect((await t.request({ method: "POST", url })).statusCode).toBe(200);
    expect((await t.request({ method: "POST", url })).statusCode).toBe(200);
    const token = url.split("/").pop() ?? "";
    // subscribing again then leaving again through the same mail still counts one person
    expect(
      (await t.request({ method: "POST", url: `/api/v1/unsubscribe/${token}/resubscribe` })).statusCode,
    ).toBe(200);
    expect((await t.request({ method: "POST", url })).statusCode).toBe(200);
    // a genuine link for this campaign to someone it did not mail unsubscribes them, uncounted
    const prefs = t.app.deps.services.mailPreferences;
    const other = prefs.tokenFor(people.e, "news", queued.id);
    expect((await t.request({ method: "POST", url: `/api/v1/unsubscribe/${other}` })).statusCode).toBe(200);
    // the campaign part of a token is signed
    const forged = token.replace(queued.id, randomUUID());
    expect((await t.request({ method: "POST", url: `/api/v1/unsubscribe/${forged}` })).statusCode).toBe(400);

    const figures = { total: 2, sent: 1, failed: 1, unsubscribed: 1 };
    expect(await campaign(queued.id)).toMatchObject(figures);
    const list = (await call("GET", "/v1/send-mail")).json().data.campaigns;
    expect(list[0]).toMatchObject({ id: queued.id, ...figures });

    // whoever left is out of the next count and send
    expect(await count({ course_id: course.a })).toBe(1);
    expect(await count({ inactive_days: 30 })).toBe(0);
    const next = await send({ course_id: course.a });
    expect(await recipientsOf(next.id)).toEqual(ids("b"));
  });

  it("count a learner who unsubscribed after the campaign was queued as unsubscribed, not failed", async () => {
    const queued = await send({ course_id: course.b });
    expect(await recipientsOf(queued.id)).toEqual(ids("c"));
    // c leaves through the preferences page (no campaign in the token) before the worker runs
    const token = t.app.deps.services.mailPreferences.tokenFor(people.c, "news");
    expect((await t.request({ method: "POST", url: `/api/v1/unsubscribe/${token}` })).statusCode).toBe(200);
    const before = t.mailbox.messages.length;
    const w = worker();
    await w.runOnce();
    await w.stop();
    expect(t.mailbox.messages.slice(before).map((m) => m.to)).not.toContain("c@campaigns.test");
    const figures = { status: "SENT", total: 1, sent: 0, failed: 0, unsubscribed: 1 };
    expect(await campaign(queued.id)).toMatchObject(figures);
    // counted once: the worker's later runs, and this campaign's own link, do not count c again
    await worker().runOnce(new Date(Date.now() + 600_000));
    const own = t.app.deps.services.mailPreferences.tokenFor(people.c, "news", queued.id);
    expect((await t.request({ method: "POST", url: `/api/v1/unsubscribe/${own}` })).statusCode).toBe(200);
    expect(await campaign(queued.id)).toMatchObject(figures);
  });
});
