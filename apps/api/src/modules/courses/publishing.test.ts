import type { AuditEntry } from "@parlons/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { createCourse, uploadAudio } from "../../../test/helpers/learning";
import { startCoursePublishing } from "../../jobs/course-publishing";
import { type LessonReadiness, publishProblems } from "./publishing";

let t: TestContext;
let admin: string;
let learner: string;
let audio: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  learner = (await t.createUser()).token;
  audio = (await uploadAudio(t, admin)).file_path;
});
afterAll(() => t.close());

type Method = "GET" | "POST" | "PUT";
const as = (token: string | undefined) => (method: Method, url: string, payload?: object) =>
  t.request({ method, url: `/api${url}`, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });
const staff = (method: Method, url: string, payload?: object) => as(admin)(method, url, payload);

/** A draft course of its own, with the lessons asked for (drafts unless `active`). */
async function draftCourse(title: string, lessons: { title: string; audio?: boolean; active?: boolean }[]) {
  const course = await createCourse(t, admin, { title_fr: title, title_en: title, active: false });
  const ids: string[] = [];
  for (const l of lessons) {
    const res = await staff("POST", `/v1/courses/${course.id}/lessons`, {
      title_fr: l.title,
      title_en: `${l.title} (en)`,
      audio: l.audio === false ? null : audio,
      free: true,
      active: l.active ?? false,
    });
    expect(res.statusCode, res.body).toBe(201);
    ids.push(res.json().data.lesson.id);
  }
  return { id: course.id, lessons: ids };
}

const publish = (id: string, at?: string | null) =>
  staff("POST", `/v1/courses/${id}/publish`, at === undefined ? {} : { at });
const catalogue = async () =>
  (
    (await as(undefined)("GET", "/v1/courses/active?pageSize=100")).json().data.courses as { id: string }[]
  ).map((c) => c.id);
const seenBy = async (token: string | undefined, id: string) =>
  (await as(token)("GET", `/v1/courses/single/${id}`)).statusCode;

async function audit(action: string, targetId: string): Promise<AuditEntry[]> {
  const res = await staff("GET", `/v1/audit?action=${action}&target_id=${targetId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.entries;
}

const job = () => startCoursePublishing({ ...t.app.deps.services, log: t.app.log, schedule: false });

describe("publishProblems (pure)", () => {
  const lesson = (over: Partial<LessonReadiness> = {}): LessonReadiness => ({
    position: 0,
    titleFr: "Bonjour",
    titleEn: "Hello",
    active: true,
    audioPath: "audio/a.mp3",
    ...over,
  });
  const course = { titleFr: "Cours", titleEn: "Course" };
  it("passes with one published lesson with audio and a French title, whatever the others", () => {
    expect(publishProblems(course, [lesson(), lesson({ active: false, audioPath: null })])).toBeNull();
  });
  it("names what is missing", () => {
    expect(publishProblems(course, [])).toEqual({ lessons: ["The course has no lesson"] });
    expect(
      publishProblems({ titleFr: " ", titleEn: "Course" }, [
        lesson({ active: false }),
        lesson({ position: 1, titleFr: "Muette", audioPath: null }),
        lesson({ position: 2, titleFr: "", titleEn: "Untitled" }),
        lesson({ position: 3, titleFr: "", titleEn: "" }),
      ]),
    ).toEqual({
      title: ["The course has no title in fr, the default language"],
      lessons: ["No published lesson has audio and a title in fr"],
      draft_lessons: ["Bonjour"],
      lessons_without_audio: ["Muette"],
      lessons_without_title: ["Untitled", "#4"],
    });
  });
});

describe("POST /v1/courses/{id}/publish", () => {
  it("refuses 422 COURSE_NOT_PUBLISHABLE naming what is missing, then publishes once a lesson is", async () => {
    const empty = await draftCourse("Vide", []);
    const none = await publish(empty.id);
    expect(none.statusCode).toBe(422);
    expect(none.json()).toMatchObject({
      code: "COURSE_NOT_PUBLISHABLE",
      errors: { lessons: ["The course has no lesson"] },
    });

    const course = await draftCourse("Presque", [
      { title: "Prête", active: false },
      { title: "Muette", audio: false, active: true },
    ]);
    const refused = await publish(course.id);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({
      lessons: ["No published lesson has audio and a title in fr"],
      draft_lessons: ["Prête"],
      lessons_without_audio: ["Muette"],
    });
    // the form's switch is checked the same way
    const put = await staff("PUT", `/v1/courses/${course.id}`, { active: true });
    expect(put.statusCode).toBe(422);
    expect(put.json().code).toBe("COURSE_NOT_PUBLISHABLE");
    expect(await seenBy(undefined, course.id)).toBe(404);

    // the draft lesson published from the staff list (audited), the course goes live
    const [ready] = course.lessons;
    const flag = await staff("PUT", `/v1/courses/${course.id}/lessons/update-by-column/${ready}`, {
      column: "active",
      value: true,
    });
    expect(flag.statusCode, flag.body).toBe(200);
    expect((await audit("lessons.publish", ready as string))[0]).toMatchObject({
      target_label: "Prête",
      before: { active: false },
      after: { active: true },
    });
    const before = await catalogue(); // read (and kept) while it is a draft
    expect(before).not.toContain(course.id);
    const done = await publish(course.id);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.course).toMatchObject({ active: true, publish_at: null });
    expect(await seenBy(undefined, course.id)).toBe(200);
    expect(await seenBy(learner, course.id)).toBe(200);
    expect(await catalogue()).toContain(course.id);
    const [entry] = await audit("courses.publish", course.id);
    expect(entry).toMatchObject({
      target_label: "Presque",
      before: { active: false, publish_at: null },
      after: { active: true, publish_at: null },
    });
    expect(entry?.actor_email).toBeTruthy();
  });

  it("refuses a bad time, and a schedule for a course already live", async () => {
    const course = await draftCourse("Horaires", [{ title: "Une", active: true }]);
    for (const at of ["demain", "2030-01-01", "2999-01-01T00:00:00Z"]) {
      const res = await publish(course.id, at);
      expect(res.statusCode, at).toBe(422);
      expect(res.json().code).toBe("VALIDATION_FAILED");
    }
    expect((await publish(course.id)).statusCode).toBe(200);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    expect((await publish(course.id, later)).statusCode).toBe(409);
    // publishing again what is live changes nothing and writes no second entry
    expect((await publish(course.id)).statusCode).toBe(200);
    expect(await audit("courses.publish", course.id)).toHaveLength(1);
  });

  it("is for staff who manage courses: 401 visitor, 403 learner, 404 unknown course", async () => {
    const course = await draftCourse("Accès", [{ title: "Une", active: true }]);
    expect((await as(undefined)("POST", `/v1/courses/${course.id}/publish`, {})).statusCode).toBe(401);
    expect((await as(learner)("POST", `/v1/courses/${course.id}/publish`, {})).statusCode).toBe(403);
    expect((await as(learner)("POST", `/v1/courses/${course.id}/unpublish`)).statusCode).toBe(403);
    expect((await publish("0190a0a0-0000-7000-8000-00000000dead")).statusCode).toBe(404);
    expect(await seenBy(undefined, course.id)).toBe(404);
  });
});

describe("publishing at a date", () => {
  it("keeps the course a draft until its time, then the job makes it live in the catalogue and its page", async () => {
    const course = await draftCourse("Rentrée", [{ title: "Première", active: true }]);
    const at = new Date(Date.now() + 2 * 3_600_000);
    const res = await publish(course.id, at.toISOString());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.course).toMatchObject({ active: false, publish_at: at.toISOString() });
    expect(await audit("courses.schedule", course.id)).toMatchObject([
      { before: { active: false, publish_at: null }, after: { active: false, publish_at: at.toISOString() } },
    ]);

    // before its time: nothing happens, visitors get 404, the catalogue (kept in memory) leaves it out
    expect(await job().runOnce(new Date(at.getTime() - 1000))).toBe(0);
    expect(await seenBy(undefined, course.id)).toBe(404);
    expect(await catalogue()).not.toContain(course.id);

    // its time: two processes' jobs at once publish it once; the kept catalogue follows at once
    // (the job announced the change)
    const runs = await Promise.all([job(), job()].map((j) => j.runOnce(new Date(at.getTime() + 1000))));
    expect(runs.sort()).toEqual([0, 1]);
    expect(await catalogue()).toContain(course.id);
    expect(await seenBy(undefined, course.id)).toBe(200);
    const single = (await as(undefined)("GET", `/v1/courses/single/${course.id}`)).json().data.course;
    expect(single).toMatchObject({ active: true, publish_at: null });
    expect(await audit("courses.publish", course.id)).toMatchObject([
      {
        actor_id: null,
        target_label: "Rentrée",
        before: { active: false, publish_at: at.toISOString() },
        after: { active: true, scheduled: true },
      },
    ]);
    // once only
    expect(await job().runOnce(new Date(at.getTime() + 60_000))).toBe(0);
  });

  it("a course that is no longer publishable at its time stays a draft, its schedule called off and logged", async () => {
    const course = await draftCourse("Annulé", [{ title: "Seule", active: true }]);
    const at = new Date(Date.now() + 3_600_000);
    expect((await publish(course.id, at.toISOString())).statusCode).toBe(200);
    await staff("PUT", `/v1/courses/${course.id}/lessons/update-by-column/${course.lessons[0]}`, {
      column: "active",
      value: false,
    });
    expect(await job().runOnce(new Date(at.getTime() + 1000))).toBe(1);
    expect(await seenBy(undefined, course.id)).toBe(404);
    const [failed] = await audit("courses.schedule_failed", course.id);
    expect(failed?.after).toMatchObject({ active: false, missing: { draft_lessons: ["Seule"] } });
    const staffView = (await staff("GET", `/v1/courses/single/${course.id}`)).json().data.course;
    expect(staffView).toMatchObject({ active: false, publish_at: null });
  });

  it("unpublishing calls off a schedule", async () => {
    const course = await draftCourse("Reporté", [{ title: "Une", active: true }]);
    const at = new Date(Date.now() + 3_600_000);
    await publish(course.id, at.toISOString());
    const res = await staff("POST", `/v1/courses/${course.id}/unpublish`);
    expect(res.json().data.course).toMatchObject({ active: false, publish_at: null });
    expect(await job().runOnce(new Date(at.getTime() + 1000))).toBe(0);
    expect(await seenBy(undefined, course.id)).toBe(404);
  });
});

describe("unpublish, drafts and the staff's preview", () => {
  it("a course back to a draft is 404 to learners and visitors, still there for staff with its draft lessons", async () => {
    const course = await draftCourse("Aperçu", [
      { title: "Publiée", active: true },
      { title: "Brouillon", active: false },
    ]);
    expect((await publish(course.id)).statusCode).toBe(200);
    const [published, draft] = course.lessons as [string, string];

    // published: learners see the published lesson only; a draft lesson is 404 to them
    const learnerList = await as(learner)("GET", `/v1/courses/${course.id}/lessons`);
    expect(learnerList.json().data.lessons.map((l: { id: string }) => l.id)).toEqual([published]);
    const doneDraft = await as(learner)("POST", `/v1/courses/${course.id}/lessons/done-customer`, {
      lesson_id: draft,
      last_position: 1,
    });
    expect(doneDraft.statusCode).toBe(404);

    const res = await staff("POST", `/v1/courses/${course.id}/unpublish`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.course.active).toBe(false);
    expect(await audit("courses.unpublish", course.id)).toMatchObject([
      { target_label: "Aperçu", before: { active: true }, after: { active: false } },
    ]);
    for (const token of [undefined, learner]) {
      expect(await seenBy(token, course.id)).toBe(404);
      expect((await as(token)("GET", `/v1/courses/${course.id}/lessons`)).statusCode).toBe(404);
    }
    expect((await as(learner)("GET", `/v1/courses/customer/overview/${course.id}`)).statusCode).toBe(404);
    expect(await catalogue()).not.toContain(course.id);

    // staff preview the draft course as learners would see it: the course and every lesson, drafts included
    expect(await seenBy(admin, course.id)).toBe(200);
    const preview = (await staff("GET", `/v1/courses/${course.id}/lessons`)).json().data.lessons as {
      id: string;
      active: boolean;
      locked: boolean;
      audio: unknown;
    }[];
    expect(preview.map((l) => [l.id, l.active, l.locked, Boolean(l.audio)])).toEqual([
      [published, true, false, true],
      [draft, false, false, true],
    ]);
    // unpublishing a draft changes nothing and writes no entry
    await staff("POST", `/v1/courses/${course.id}/unpublish`);
    expect(await audit("courses.unpublish", course.id)).toHaveLength(1);
  });
});

describe("audit of edits made from the staff lists", () => {
  it("records the popular switch and a lesson's links, by title", async () => {
    const course = await draftCourse("Journal", [{ title: "Liens", active: true }]);
    await staff("PUT", `/v1/courses/popular-unpopular/${course.id}`, { popular: true });
    expect((await audit("courses.update", course.id))[0]).toMatchObject({
      target_label: "Journal",
      before: { popular: false },
      after: { popular: true },
    });
    const lesson = course.lessons[0] as string;
    const links = [{ label: "Dictionnaire", url: "https://www.wordreference.com" }];
    await staff("PUT", `/v1/courses/${course.id}/lessons/update-links/${lesson}`, { links });
    expect((await audit("lessons.update", lesson))[0]).toMatchObject({
      target_label: "Liens",
      before: { links: [] },
      after: { links },
    });
  });
});
