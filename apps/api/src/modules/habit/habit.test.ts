import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { testClock } from "../../../test/helpers/clock";
import { courseWithLessons } from "../../../test/helpers/learning";
import { outboxWorkerOf } from "../../../test/helpers/mail-workers";
import { mailDeliveries, mailOutbox, studyReminders } from "../../db/schema";
import { createMailer } from "../../integrations/mail/mailer";
import { startStudyReminders } from "../../jobs/study-reminders";
import { UNSUBSCRIBED } from "../mail/deliveries";
import { isoWeek, streakOf } from "./streak";

// The daily habit: goal settings, listening counted once, streaks in the learner's time zone with
// the weekly freeze (clock injected), study reminders sent once, and one-click unsubscribe.
let t: TestContext;
// the time the habit and review services see: a test that counts "today" sets it, so that it passes
// at any hour it runs (at midnight in Paris, the minutes of five minutes ago were yesterday's)
const clock = testClock();
beforeAll(async () => {
  t = await buildTestApp({ clock });
});
afterEach(() => clock.reset());
afterAll(() => t.close());

const lesson = randomUUID();
const otherLesson = randomUUID();
const habit = () => t.app.deps.services.habit;
const settings = (token: string, payload: object) =>
  t.request({ method: "PUT", url: "/api/v1/habit/settings", token, payload });
const listen = (token: string, items: object[]) =>
  t.request({ method: "POST", url: "/api/v1/habit/listening", token, payload: { items } });
const summary = async (token: string) => {
  const res = await t.request({ method: "GET", url: "/api/v1/habit", token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
/** Minutes listened in full (60 s each) at the given UTC instants. */
const listenedAt = (userId: string, instants: string[], now: Date) =>
  habit().recordListening(
    userId,
    { items: instants.map((minute) => ({ lesson_id: lesson, minute, seconds: 60 })) },
    now,
  );

describe("daily goal", () => {
  it("is set by the learner, and refused with field errors when out of range or unknown", async () => {
    const learner = await t.createUser();
    const first = await summary(learner.token);
    expect(first.settings).toEqual({
      goal_minutes: 10,
      time_zone: "Europe/Paris",
      reminder_hour: null,
      learning_language: null,
      level: null,
    });
    // a first visit: the welcome has not been gone through; the browser's time zone, saved by the
    // dashboard on its own, does not change that
    expect(first.welcomed).toBe(false);
    expect((await settings(learner.token, { time_zone: "Europe/Berlin" })).json().data.welcomed).toBe(false);
    const ok = await settings(learner.token, {
      goal_minutes: 25,
      time_zone: "America/New_York",
      reminder_hour: 19,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.settings).toEqual({
      goal_minutes: 25,
      time_zone: "America/New_York",
      reminder_hour: 19,
      learning_language: null,
      level: null,
    });
    expect(ok.json().data.welcomed).toBe(true);
    // the welcome's choices: the language learned and the level, kept with the goal
    const chosen = await settings(learner.token, {
      learning_language: "es",
      level: "starting",
      goal_minutes: 5,
    });
    expect(chosen.json().data.settings).toMatchObject({
      learning_language: "es",
      level: "starting",
      goal_minutes: 5,
    });
    await settings(learner.token, { goal_minutes: 25 });
    expect(ok.json().data.today.goal_seconds).toBe(1500);

    for (const [payload, field] of [
      [{ goal_minutes: 0 }, "goal_minutes"],
      [{ goal_minutes: 241 }, "goal_minutes"],
      [{ goal_minutes: 2.5 }, "goal_minutes"],
      [{ time_zone: "Mars/Olympus_Mons" }, "time_zone"],
      [{ reminder_hour: 24 }, "reminder_hour"],
      [{ level: "C2" }, "level"],
      [{ learning_language: "xx" }, "learning_language"],
    ] as const) {
      const res = await settings(learner.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json()).toMatchObject({ code: "VALIDATION_FAILED" });
      expect(Object.keys(res.json().errors)).toContain(field);
    }
    expect((await settings(learner.token, {})).statusCode).toBe(422);
    expect(
      (await t.request({ method: "PUT", url: "/api/v1/habit/settings", payload: { goal_minutes: 5 } }))
        .statusCode,
    ).toBe(401);
    // reminders switched off again
    expect(
      (await settings(learner.token, { reminder_hour: null })).json().data.settings.reminder_hour,
    ).toBeNull();
  });
});

describe("minutes listened", () => {
  // at noon, and two minutes past midnight in Paris (UTC+1 in January), where "today" has just begun
  for (const now of ["2026-01-15T11:30:20Z", "2026-01-15T23:02:20Z"]) {
    it(`count once with retries, a duplicated item, a second tab or device, and two lessons in one minute (${now})`, async () => {
      clock.set(now);
      const learner = await t.createUser();
      const at = (minutes: number) =>
        new Date(Math.floor(Date.parse(now) / 60_000) * 60_000 + minutes * 60_000).toISOString();
      const [minute, next] = [at(-2), at(-1)];
      const report = [
        { lesson_id: lesson, minute, seconds: 30 },
        { lesson_id: lesson, minute, seconds: 45 },
        { lesson_id: lesson, minute: next, seconds: 60 },
      ];
      for (let i = 0; i < 3; i += 1) expect((await listen(learner.token, report)).statusCode).toBe(200);
      // the other tab reports less of the same minute: the larger value stays
      expect((await listen(learner.token, [{ lesson_id: lesson, minute, seconds: 20 }])).statusCode).toBe(
        200,
      );
      let today = (await summary(learner.token)).today;
      expect(today.seconds).toBe(105);
      expect(today.minutes).toBe(1);
      // two lessons playing in the same minute (two tabs): one minute never holds more than 60 seconds
      await listen(learner.token, [{ lesson_id: otherLesson, minute: next, seconds: 50 }]);
      today = (await summary(learner.token)).today;
      expect(today.seconds).toBe(105);
      // four minutes ago: at 00:02 in Paris, that is yesterday (23:58), shown in the week, not today
      await listen(learner.token, [{ lesson_id: lesson, minute: at(-4), seconds: 40 }]);
      const after = await summary(learner.token);
      const yesterday = after.week.at(-2) as { seconds: number };
      expect([after.today.seconds, yesterday.seconds]).toEqual(
        now.endsWith("23:02:20Z") ? [105, 40] : [145, 0],
      );

      const future = at(60);
      const bad = await listen(learner.token, [{ lesson_id: lesson, minute: future, seconds: 10 }]);
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toHaveProperty(["items.0.minute"]);
      expect((await listen(learner.token, [{ lesson_id: lesson, minute, seconds: 61 }])).statusCode).toBe(
        422,
      );
      expect((await listen(learner.token, [])).statusCode).toBe(422);
    });
  }

  it("lines reviewed count toward the goal (15 s each), a replayed grade once, at 00:02 in Paris too", async () => {
    const admin = await t.adminToken();
    clock.set("2026-01-15T23:02:00Z"); // 00:02 on the 16th in Paris
    const fx = await courseWithLessons(t, admin);
    const learner = await t.createUser();
    await settings(learner.token, { goal_minutes: 1 });
    const done = await t.request({
      method: "POST",
      url: `/api/v1/courses/${fx.course.id}/lessons/done-customer`,
      token: learner.token,
      payload: { lesson_id: fx.free.id, done: true },
    });
    expect(done.statusCode, done.body).toBe(200);
    const due = await t.request({ method: "GET", url: "/api/v1/review/due", token: learner.token });
    const card = due.json().data.items[0].card.id as string;
    const grade = { card_id: card, rating: 3, review_id: randomUUID() };
    for (let i = 0; i < 2; i += 1) {
      const res = await t.request({
        method: "POST",
        url: "/api/v1/review/grade",
        token: learner.token,
        payload: grade,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const today = (await summary(learner.token)).today;
    expect(today).toMatchObject({ lines: 1, progress_seconds: 15, goal_reached: false });
  });
});

describe("study days", () => {
  const session = (token: string, payload: object) =>
    t.request({ method: "POST", url: "/api/v1/habit/sessions", token, payload });
  const finished = (body: object) => ({
    id: randomUUID(),
    kind: "review",
    items: 10,
    correct: 8,
    finished_at: new Date().toISOString(),
    ...body,
  });

  it("a finished lesson makes a study day below the goal, and starts the streak", async () => {
    const admin = await t.adminToken();
    const fx = await courseWithLessons(t, admin);
    const learner = await t.createUser();
    await settings(learner.token, { goal_minutes: 20 });
    expect((await summary(learner.token)).today).toMatchObject({ studied: false, units: 0 });
    const done = await t.request({
      method: "POST",
      url: `/api/v1/courses/${fx.course.id}/lessons/done-customer`,
      token: learner.token,
      payload: { lesson_id: fx.free.id, done: true },
    });
    expect(done.statusCode, done.body).toBe(200);
    const s = await summary(learner.token);
    expect(s.today).toMatchObject({ studied: true, units: 1, goal_reached: false });
    expect(s.streak.current).toBe(1);
    expect(s.week.at(-1)).toMatchObject({ studied: true });
  });

  it("a session of ten items counts, nine do not; a session sent again counts once; exercise minutes count", async () => {
    const learner = await t.createUser();
    await settings(learner.token, { goal_minutes: 20 });
    const nine = await session(learner.token, finished({ items: 9, correct: 9 }));
    expect(nine.statusCode, nine.body).toBe(200);
    expect(nine.json().data).toMatchObject({
      recorded: true,
      summary: { today: { studied: false, units: 0 } },
    });
    const body = finished({ items: 10, correct: 7 });
    const ten = await session(learner.token, body);
    expect(ten.json().data.summary.today).toMatchObject({ studied: true, units: 1 });
    expect(ten.json().data.summary.streak.current).toBe(1);
    const again = await session(learner.token, body);
    expect(again.json().data).toMatchObject({ recorded: false, summary: { today: { units: 1 } } });
    // exercises' seconds count toward the goal (review counts its lines instead)
    const before = ten.json().data.summary.today.progress_seconds as number;
    const exercise = await session(
      learner.token,
      finished({ kind: "exercise", items: 4, correct: 4, seconds: 300 }),
    );
    expect(exercise.json().data.summary.today.progress_seconds).toBe(before + 300);
    const review = await session(learner.token, finished({ items: 3, correct: 3, seconds: 300 }));
    expect(review.json().data.summary.today.progress_seconds).toBe(before + 300);
    // the service the exercises call directly
    expect(
      await habit().recordSession(learner.id, {
        id: randomUUID(),
        kind: "exercise",
        items: 12,
        correct: 6,
        finished_at: new Date().toISOString(),
      }),
    ).toBe(true);
    expect((await summary(learner.token)).today.units).toBe(2);
  });

  it("refuses a wrong session with field errors, and a caller not signed in", async () => {
    const learner = await t.createUser();
    for (const [payload, field] of [
      [finished({ items: 3, correct: 4 }), "correct"],
      [finished({ kind: "game" }), "kind"],
      [finished({ items: 0, correct: 0 }), "items"],
      [finished({ finished_at: new Date(Date.now() + 3_600_000).toISOString() }), "finished_at"],
      [finished({ id: "not-a-uuid" }), "id"],
    ] as const) {
      const res = await session(learner.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().errors)).toContain(field);
    }
    const anonymous = await t.request({
      method: "POST",
      url: "/api/v1/habit/sessions",
      payload: finished({}),
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("streak", () => {
  it("walks back from today and one missed day per ISO week is covered by the freeze", () => {
    const reached = new Set(["2026-03-11", "2026-03-09", "2026-03-08", "2026-03-07"]);
    // Thu 12 not reached yet, Wed 11 reached, Tue 10 missed (this week's freeze), Mon 9 … Sat 7 reached,
    // Fri 6 missed (week 10's freeze, kept pending), Thu 5 missed in the same week: the streak ends
    const s = streakOf((d) => reached.has(d), "2026-03-12");
    expect(s.current).toBe(4);
    expect([...s.frozen]).toEqual(["2026-03-10"]);
    expect(s.freezeAvailable).toBe(false);
    // two missed days in one week: the freeze covers one, the streak stops at the other
    reached.delete("2026-03-09");
    expect(streakOf((d) => reached.has(d), "2026-03-12").current).toBe(1);
    // a freeze never starts a streak
    expect(streakOf(() => false, "2026-03-12")).toMatchObject({ current: 0, freezeAvailable: true });
    expect(isoWeek("2026-01-01")).toBe("2026-W01");
    expect(isoWeek("2027-01-01")).toBe("2026-W53");
  });

  it("counts days in the learner's time zone, with an injected clock", async () => {
    const learner = await t.createUser();
    await settings(learner.token, { goal_minutes: 1, time_zone: "America/Los_Angeles" });
    const now = new Date("2026-03-12T18:00:00Z"); // Thursday 11:00 in Los Angeles (PDT)
    // 2026-03-11T06:30Z is still Tuesday the 10th in Los Angeles, and Wednesday the 11th in Tokyo
    await listenedAt(
      learner.id,
      ["2026-03-11T06:30:00Z", "2026-03-12T16:00:00Z", "2026-03-09T20:00:00Z"],
      now,
    );
    let s = await habit().summary(learner.id, now);
    expect(s.today).toMatchObject({ date: "2026-03-12", minutes: 1, goal_reached: true });
    // 12 reached, 11 missed (freeze of week 11), 10 reached, 9 reached, 8 missed (week 10's freeze), 7 missed: end
    expect(s.streak).toEqual({ current: 3, freeze_available: false });
    expect(s.week.map((d: { date: string; frozen: boolean }) => [d.date, d.frozen])).toContainEqual([
      "2026-03-11",
      true,
    ]);

    await habit().updateSettings(learner.id, { time_zone: "Asia/Tokyo" });
    s = await habit().summary(learner.id, now); // Friday 03:00 in Tokyo
    // in Tokyo: 13 (today) nothing yet, 12 reached (16:00Z is 01:00 on the 13th? no: the 13th at 01:00)
    expect(s.today.date).toBe("2026-03-13");
    expect(s.today.goal_reached).toBe(true);
    const dates = s.week
      .filter((d: { goal_reached: boolean }) => d.goal_reached)
      .map((d: { date: string }) => d.date);
    expect(dates).toEqual(["2026-03-10", "2026-03-11", "2026-03-13"]);
    expect(s.streak.current).toBe(3);
  });
});

describe("study reminders", () => {
  // Tuesday 1 December 2026, 18:05 in Paris (UTC+1)
  const at = new Date("2026-12-01T17:05:00Z");
  const later = (minutes: number) => new Date(at.getTime() + minutes * 60_000);
  const remindersTo = (email: string) =>
    t.mailbox.messages.filter((m) => m.to === email && /Parlons (today|aujourd)/.test(m.subject));

  it("go out once at the learner's hour, never after they studied, at most once a day, even through a restart", async () => {
    const fresh = await t.createUser({ speak: "EN" });
    const studied = await t.createUser();
    const refused = await t.createUser();
    const newYork = await t.createUser();
    const noHour = await t.createUser();
    for (const u of [fresh, studied, refused]) await settings(u.token, { reminder_hour: 18 });
    await settings(newYork.token, { reminder_hour: 18, time_zone: "America/New_York" });
    await settings(noHour.token, { goal_minutes: 5 });
    await listenedAt(studied.id, ["2026-12-01T08:00:00Z"], at);
    const off = await t.request({
      method: "PUT",
      url: "/api/v1/user/me/mail-preferences",
      token: refused.token,
      payload: { study_reminders: false },
    });
    expect(off.json().data.items).toEqual([
      { kind: "study_reminders", subscribed: false },
      { kind: "news", subscribed: true },
      { kind: "new_device", subscribed: true },
    ]);

    // two processes running the job at the same moment queue one reminder
    const runs = await Promise.all([habit().remindDue(at), habit().remindDue(at)]);
    expect(runs[0] + runs[1]).toBe(1);
    const rows = await t.database.db.select().from(studyReminders);
    expect(rows.map((r) => r.userId)).toEqual([fresh.id]);
    // later in the same hour, and in the next one: nothing more that day
    expect(await habit().remindDue(later(40))).toBe(0);
    await settings(fresh.token, { reminder_hour: 19 });
    expect(await habit().remindDue(later(60))).toBe(0);
    await settings(fresh.token, { reminder_hour: 18 });

    // the sending process dies after claiming the mail: nothing goes out until its lease passes,
    // then the next process sends it once
    const claimed = await t.app.deps.services.mailOutbox.claim(later(1), { limit: 10, leaseMs: 5 * 60_000 });
    expect(claimed.map((c) => c.email)).toEqual([fresh.email]);
    const restarted = outboxWorkerOf(t);
    expect(await restarted.runOnce(later(2))).toEqual({ sent: 0, failed: 0 });
    expect(await restarted.runOnce(later(7))).toEqual({ sent: 1, failed: 0 });
    expect(await restarted.runOnce(later(8))).toEqual({ sent: 0, failed: 0 });
    await restarted.stop();
    const [mail] = remindersTo(fresh.email);
    expect(remindersTo(fresh.email)).toHaveLength(1);
    expect(mail?.subject).toBe("A few minutes of Parlons today?");
    expect(mail?.text).toContain("http://parlons.test/en/dashboard");
    expect(mail?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail?.headers?.["List-Unsubscribe"]).toMatch(
      /^<http:\/\/parlons\.test\/api\/v1\/unsubscribe\/[^>]+>$/,
    );
    expect(mail?.text).toMatch(/Stop these study reminders: http:\/\/parlons\.test\/en\/unsubscribe\//);
    for (const u of [studied, refused, newYork, noHour]) expect(remindersTo(u.email)).toEqual([]);

    // 18:05 in New York; and the next day in Paris, the first learner again, and the one who
    // studied yesterday but not today
    expect(await habit().remindDue(new Date("2026-12-01T23:05:00Z"))).toBe(1);
    expect(await habit().remindDue(new Date("2026-12-02T17:10:00Z"))).toBe(2);
    const keys = (await t.database.db.select({ key: mailOutbox.dedupeKey }).from(mailOutbox)).map(
      (r) => r.key,
    );
    expect(keys.sort()).toEqual(
      [
        `study-reminder:${fresh.id}:2026-12-01`,
        `study-reminder:${fresh.id}:2026-12-02`,
        `study-reminder:${studied.id}:2026-12-02`,
        `study-reminder:${newYork.id}:2026-12-01`,
      ].sort(),
    );
    // the job's wrapper runs it too (server.ts starts it with a timer)
    const job = startStudyReminders({ habit: habit(), log: t.app.log, schedule: false });
    expect(await job.runOnce(at)).toBe(0);
    await job.stop();
  });

  it("at 00:02 in Paris, one set for midnight goes out for the new day, even after studying at 23:58", async () => {
    const night = await t.createUser();
    const early = await t.createUser();
    for (const u of [night, early]) await settings(u.token, { reminder_hour: 0 });
    clock.set("2026-01-15T23:02:00Z"); // 00:02 on the 16th in Paris
    await listenedAt(night.id, ["2026-01-15T22:58:00Z"], clock()); // 23:58 on the 15th
    await listenedAt(early.id, ["2026-01-15T23:01:00Z"], clock()); // 00:01 on the 16th: studied today
    // the job run by its timer passes no time: the service reads its clock
    // (18:02 in New York: the learner of the test above who chose 18:00 there is reminded too)
    expect(await habit().remindDue()).toBeGreaterThanOrEqual(1);
    const keys = (await t.database.db.select({ key: mailOutbox.dedupeKey }).from(mailOutbox)).map(
      (r) => r.key,
    );
    expect(keys).toContain(`study-reminder:${night.id}:2026-01-16`);
    expect(keys.filter((k) => k?.includes(early.id))).toEqual([]);
  });

  it("carry List-Unsubscribe and List-Unsubscribe-Post in the written mail file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "habit-mail-"));
    const mailer = createMailer({ outboxDir: dir, from: "Parlons <no-reply@parlons.test>" });
    const parts = t.app.deps.services.mailPreferences.unsubscribeParts(randomUUID(), "news", "FR");
    await mailer.send({ to: "a@test.local", subject: "s", text: "t", headers: parts.headers });
    const file = readFileSync(path.join(dir, readdirSync(dir)[0] ?? ""), "utf8");
    expect(file).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(file.replace(/\r?\n\s+/g, "")).toContain(parts.headers["List-Unsubscribe"]);
  });
});

describe("unsubscribe", () => {
  const tokenOf = (header: string | undefined) =>
    (header ?? "").replace(/^<.*\/unsubscribe\/([^>]+)>$/, "$1");

  it("one POST without sign-in unsubscribes; the page can subscribe again; bad tokens are 400 and 404", async () => {
    const learner = await t.createUser({ speak: "EN" });
    const prefs = t.app.deps.services.mailPreferences;
    const token = tokenOf(prefs.unsubscribeParts(learner.id, "news", "EN").headers["List-Unsubscribe"]);
    const get = await t.request({ method: "GET", url: `/api/v1/unsubscribe/${token}` });
    expect(get.statusCode).toBe(303);
    expect(get.headers.location).toBe(`/en/unsubscribe/${token}`);
    // a GET (a mail scanner following the link) changes nothing
    expect(await prefs.isSubscribed(learner.id, "news")).toBe(true);

    const post = await t.request({
      method: "POST",
      url: `/api/v1/unsubscribe/${token}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(post.statusCode, post.body).toBe(200);
    expect(post.json().data).toMatchObject({ kind: "news", subscribed: false, lang: "EN" });
    expect(post.json().data.email).toMatch(/^l•••@test\.local$/);
    expect(await prefs.isSubscribed(learner.id, "news")).toBe(false);
    expect(await prefs.isSubscribed(learner.id, "study_reminders")).toBe(true);
    // a second click is harmless
    expect((await t.request({ method: "POST", url: `/api/v1/unsubscribe/${token}` })).statusCode).toBe(200);

    const status = await t.request({ method: "GET", url: `/api/v1/unsubscribe/${token}/status` });
    expect(status.json().data.subscribed).toBe(false);
    const again = await t.request({ method: "POST", url: `/api/v1/unsubscribe/${token}/resubscribe` });
    expect(again.json().data.subscribed).toBe(true);
    const mine = await t.request({
      method: "GET",
      url: "/api/v1/user/me/mail-preferences",
      token: learner.token,
    });
    expect(mine.json().data.items).toEqual([
      { kind: "study_reminders", subscribed: true },
      { kind: "news", subscribed: true },
      { kind: "new_device", subscribed: true },
    ]);

    const tampered = `${token.slice(0, -2)}xx`;
    for (const bad of ["abc", tampered, token.replace("news", "study_reminders")]) {
      const res = await t.request({ method: "POST", url: `/api/v1/unsubscribe/${bad}` });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().code).toBe("TOKEN_INVALID");
    }
    const nobody = prefs.tokenFor(randomUUID(), "news");
    const gone = await t.request({ method: "POST", url: `/api/v1/unsubscribe/${nobody}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe("NOT_FOUND");
    expect((await t.request({ method: "GET", url: `/api/v1/unsubscribe/${nobody}` })).headers.location).toBe(
      `/unsubscribe/${nobody}`,
    );
  });

  it("a learner who refused news is never sent a campaign", async () => {
    const admin = await t.adminToken();
    const keeps = await t.createUser({ email: "keeps-news@test.local" });
    const refuses = await t.createUser({ email: "refuses-news@test.local" });
    const late = await t.createUser({ email: "late-refusal@test.local" });
    const prefs = t.app.deps.services.mailPreferences;
    const token = prefs.tokenFor(refuses.id, "news");
    expect((await t.request({ method: "POST", url: `/api/v1/unsubscribe/${token}` })).statusCode).toBe(200);
    const res = await t.request({
      method: "POST",
      url: "/api/v1/send-mail/send",
      token: admin,
      payload: {
        subject_fr: "Nouvelles",
        subject_en: "News",
        body_fr: "a",
        body_en: "b",
        audience: { role: "CUSTOMER" },
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    // unsubscribed after the campaign was queued, before its mail went out
    const lateToken = prefs.tokenFor(late.id, "news");
    expect((await t.request({ method: "POST", url: `/api/v1/unsubscribe/${lateToken}` })).statusCode).toBe(
      200,
    );
    const { startMailWorker } = await import("../../jobs/mail-worker");
    const w = startMailWorker({
      queue: t.app.deps.services.mailDeliveries,
      mailer: t.mailbox,
      log: t.app.log,
      schedule: false,
    });
    await w.runOnce();
    await w.stop();
    const news = t.mailbox.messages.filter((m) => m.subject === "Nouvelles" || m.subject === "News");
    expect(news.map((m) => m.to)).toContain(keeps.email);
    expect(news.map((m) => m.to)).not.toContain(refuses.email);
    expect(news.map((m) => m.to)).not.toContain(late.email);
    const [lateRow] = await t.database.db
      .select()
      .from(mailDeliveries)
      .where(eq(mailDeliveries.userId, late.id));
    expect(lateRow).toMatchObject({ status: "FAILED", lastError: UNSUBSCRIBED });
    const sent = news.find((m) => m.to === keeps.email);
    expect(sent?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(sent?.text).toContain("Se désabonner des nouvelles de Parlons: http://parlons.test/unsubscribe/");
  });
});
