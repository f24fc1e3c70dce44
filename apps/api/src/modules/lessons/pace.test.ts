import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons, makePremium } from "../../../test/helpers/learning";
import { lessonProgress } from "../../db/schema/lessons";

// A course's pace (drip): lessons that open in order or one every N days, on top of the plan.
let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

interface Row {
  id: string;
  locked: boolean;
  drip: { reason: "order" | "date"; opens_at: string | null } | null;
  audio: { url: string } | null;
}

/** A course of four lessons (the second premium), paced as `pace` says, and a premium learner. */
async function pacedCourse(pace: { drip_mode: string; drip_days?: number }) {
  const fx = await courseWithLessons(t, admin);
  const url = `/api/v1/courses/${fx.course.id}/lessons`;
  for (const title of ["Trois", "Quatre"]) {
    const res = await t.request({
      method: "POST",
      url,
      token: admin,
      payload: { title_fr: title, title_en: title, audio: fx.audio.file_path, free: true },
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  const put = await t.request({
    method: "PUT",
    url: `/api/v1/courses/${fx.course.id}`,
    token: admin,
    payload: pace,
  });
  expect(put.statusCode, put.body).toBe(200);
  expect(put.json().data.course).toMatchObject({ drip_mode: pace.drip_mode });
  const learner = await t.createUser();
  await makePremium(t, learner.id);
  const list = async (token = learner.token) => {
    const res = await t.request({ method: "GET", url, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.lessons as Row[];
  };
  const progress = (lessonId: string, done: boolean) =>
    t.request({
      method: "POST",
      url: `${url}/done-customer`,
      token: learner.token,
      payload: { lesson_id: lessonId, done, last_position: 1 },
    });
  return { fx, learner, list, progress };
}

describe("course pace", () => {
  it("in order: each lesson opens once the previous one is done; staff are not paced", async () => {
    const { list, progress } = await pacedCourse({ drip_mode: "sequence" });
    let rows = await list();
    expect(rows.map((r) => r.drip?.reason ?? null)).toEqual([null, "order", "order", "order"]);
    expect(rows.map((r) => r.locked)).toEqual([false, true, true, true]);
    expect(rows[1]?.audio).toBeNull();

    const early = await progress(rows[1]?.id as string, true);
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe("LESSON_NOT_OPEN_YET");

    expect((await progress(rows[0]?.id as string, true)).statusCode).toBe(200);
    rows = await list();
    expect(rows.map((r) => r.locked)).toEqual([false, false, true, true]);
    expect(rows[1]?.audio?.url).toBeTruthy();

    const staff = await list(admin);
    expect(staff.every((r) => !r.locked && r.drip === null)).toBe(true);
  });

  it("review honours the pace: a line of a lesson the pace keeps closed is refused until it opens", async () => {
    const { fx, list, progress, learner } = await pacedCourse({ drip_mode: "sequence" });
    const rows = await list();
    const second = rows[1]?.id as string;
    const cuesUrl = `/api/v1/courses/${fx.course.id}/lessons/${second}/cues`;
    const put = await t.request({
      method: "PUT",
      url: cuesUrl,
      token: admin,
      payload: { cues: [{ start: 0, end: 2, text: "Hola", translation_fr: "Bonjour" }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const cueId = (put.json().data.cues as { id: string }[])[0]?.id;
    const addLine = () =>
      t.request({
        method: "POST",
        url: "/api/v1/review/cards",
        token: learner.token,
        payload: { cue_id: cueId },
      });

    const closed = await addLine();
    expect(closed.statusCode).toBe(403);
    expect(closed.json().code).toBe("LESSON_NOT_OPEN_YET");

    expect((await progress(rows[0]?.id as string, true)).statusCode).toBe(200);
    const opened = await addLine();
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().data.added).toBe(true);
  });

  it("one every N days from the learner's first listen; a lesson begun stays open", async () => {
    const { learner, list, progress } = await pacedCourse({ drip_mode: "days", drip_days: 2 });
    let rows = await list();
    // not started: the first lesson only, the others open "N days after you start"
    expect(rows.map((r) => r.drip)).toEqual([
      null,
      { reason: "date", opens_at: null },
      { reason: "date", opens_at: null },
      { reason: "date", opens_at: null },
    ]);

    const first = rows[0]?.id as string;
    expect((await progress(first, false)).statusCode).toBe(200);
    rows = await list();
    const [started] = await t.database.db
      .select()
      .from(lessonProgress)
      .where(and(eq(lessonProgress.userId, learner.id), eq(lessonProgress.lessonId, first)));
    if (!started) throw new Error("no progress row");
    const start = started.createdAt.getTime();
    expect(rows.map((r) => (r.drip?.opens_at ? Date.parse(r.drip.opens_at) - start : null))).toEqual([
      null,
      2 * 86_400_000,
      4 * 86_400_000,
      6 * 86_400_000,
    ]);

    // five days later: lessons 2 and 3 have opened, the fourth opens on day 6
    await t.database.db
      .update(lessonProgress)
      .set({ createdAt: new Date(start - 5 * 86_400_000) })
      .where(and(eq(lessonProgress.userId, learner.id), eq(lessonProgress.lessonId, first)));
    expect((await progress(first, false)).statusCode).toBe(200); // any progress refreshes the list
    rows = await list();
    expect(rows.map((r) => r.locked)).toEqual([false, false, false, true]);
    expect(Date.parse(rows[3]?.drip?.opens_at as string)).toBe(start + 86_400_000);
    expect((await progress(rows[3]?.id as string, false)).statusCode).toBe(403);
    expect((await progress(rows[2]?.id as string, true)).statusCode).toBe(200);
  });

  it("the dashboard's next lesson says when the pace opens it instead of offering to play it", async () => {
    const { fx, learner, list, progress } = await pacedCourse({ drip_mode: "days", drip_days: 3 });
    const rows = await list();
    expect((await progress(rows[0]?.id as string, true)).statusCode).toBe(200);
    const [started] = await t.database.db
      .select()
      .from(lessonProgress)
      .where(and(eq(lessonProgress.userId, learner.id), eq(lessonProgress.lessonId, rows[0]?.id as string)));
    const overview = async (token: string) => {
      const res = await t.request({
        method: "GET",
        url: `/api/v1/courses/customer/overview/${fx.course.id}`,
        token,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.overview.next_lesson;
    };
    const next = await overview(learner.token);
    expect(next).toMatchObject({ id: rows[1]?.id, locked: true, drip: { reason: "date" } });
    expect(Date.parse(next.drip.opens_at)).toBe((started?.createdAt.getTime() ?? 0) + 3 * 86_400_000);
    const dashboard = await t.request({
      method: "GET",
      url: "/api/v1/courses/customer/progress",
      token: learner.token,
    });
    expect(dashboard.json().data.courses[0].overview.next_lesson.drip).toEqual(next.drip);

    // in order: the next lesson is open once the previous is done (no pace lock)
    const ordered = await pacedCourse({ drip_mode: "sequence" });
    const first = (await ordered.list())[0]?.id as string;
    expect((await ordered.progress(first, true)).statusCode).toBe(200);
    const res = await t.request({
      method: "GET",
      url: `/api/v1/courses/customer/overview/${ordered.fx.course.id}`,
      token: ordered.learner.token,
    });
    expect(res.json().data.overview.next_lesson).toMatchObject({ locked: false, drip: null });
  });

  it("refuses a pace that is not one, with field errors", async () => {
    const fx = await courseWithLessons(t, admin);
    for (const payload of [
      { drip_mode: "weekly" },
      { drip_days: 0 },
      { drip_days: 366 },
      { drip_days: 1.5 },
    ]) {
      const res = await t.request({
        method: "PUT",
        url: `/api/v1/courses/${fx.course.id}`,
        token: admin,
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual([Object.keys(payload)[0]]);
    }
  });
});
