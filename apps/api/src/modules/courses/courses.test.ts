import { existsSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import {
  courseInput,
  courseWithLessons,
  makePremium,
  tinyPng,
  uploadCover,
} from "../../../test/helpers/learning";
import { lessons } from "../../db/schema";

let t: TestContext;
let admin: string;
let learner: { id: string; token: string };
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  learner = await t.createUser();
});
afterAll(() => t.close());

const missing = "00000000-0000-4000-8000-000000000000";
const create = (payload: object, token = admin) =>
  t.request({ method: "POST", url: "/api/v1/courses", token, payload });

describe("courses CRUD (staff)", () => {
  it("creates a course with a unique slug from the French title, and counts", async () => {
    const a = await create(courseInput({ title_fr: "Allemand : les bases" }));
    expect(a.statusCode).toBe(201);
    const course = a.json().data.course;
    expect(course).toMatchObject({
      slug: "allemand-les-bases",
      title_en: "Spanish for beginners",
      target_language: "es",
      level: "A1",
      active: true,
      popular: false,
      lessons_count: 0,
      free_lessons_count: 0,
      total_duration: 0,
      cover: null,
      cover_url: null,
    });
    const b = await create(courseInput({ title_fr: "Allemand : les bases" }));
    expect(b.json().data.course.slug).toBe("allemand-les-bases-2");
    const taken = await create(courseInput({ slug: "allemand-les-bases" }));
    expect(taken.statusCode).toBe(409);
  });

  it("validates the body (422) and needs the permission (401, 403)", async () => {
    const bad = await create({ title_fr: "", title_en: "x", target_language: "xx", level: "Z9" });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(
      expect.arrayContaining(["title_fr", "target_language", "level"]),
    );
    expect(
      (await t.request({ method: "POST", url: "/api/v1/courses", payload: courseInput() })).statusCode,
    ).toBe(401);
    expect((await create(courseInput(), learner.token)).statusCode).toBe(403);
    expect(
      (await t.request({ method: "GET", url: "/api/v1/courses", token: learner.token })).statusCode,
    ).toBe(403);
    const noCover = await create(courseInput({ cover: "images/nope.png" }));
    expect(noCover.statusCode).toBe(422);
  });

  it("updates partially, refuses an unknown id (404) and a malformed one (400)", async () => {
    const { id } = (await create(courseInput())).json().data.course;
    const res = await t.request({
      method: "PUT",
      url: `/api/v1/courses/${id}`,
      token: admin,
      payload: { level: "B2", description_en: "New" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.course).toMatchObject({
      level: "B2",
      description_en: "New",
      title_fr: "Espagnol pour débutants",
    });
    await t.request({
      method: "PUT",
      url: `/api/v1/courses/${id}`,
      token: admin,
      payload: { active: true, popular: true, position: 7, description_fr: "Garde" },
    });
    const kept = await t.request({
      method: "PUT",
      url: `/api/v1/courses/${id}`,
      token: admin,
      payload: { title_en: "Kept" },
    });
    expect(kept.json().data.course).toMatchObject({
      title_en: "Kept",
      active: true,
      popular: true,
      position: 7,
      description_fr: "Garde",
      level: "B2",
    });
    expect(
      (await t.request({ method: "PUT", url: `/api/v1/courses/${missing}`, token: admin, payload: {} }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: "PUT", url: "/api/v1/courses/nope", token: admin, payload: {} })).statusCode,
    ).toBe(400);
    expect(
      (await t.request({ method: "PUT", url: `/api/v1/courses/${id}`, token: admin, payload: { level: 3 } }))
        .statusCode,
    ).toBe(422);
  });

  it("sets a cover from an uploaded image and serves it publicly", async () => {
    const png = tinyPng();
    const cover = await uploadCover(t, admin, png);
    const res = await create(courseInput({ cover }));
    expect(res.statusCode).toBe(201);
    const url = res.json().data.course.cover_url;
    expect(url).toBe(`/api/v1/media/${cover}`);
    const img = await t.request({ method: "GET", url });
    expect(img.statusCode).toBe(200);
    expect(img.headers["content-type"]).toBe("image/png");
    expect(img.rawPayload.equals(png)).toBe(true);
  });

  it("toggles popular, or sets it", async () => {
    const { id } = (await create(courseInput())).json().data.course;
    const url = `/api/v1/courses/popular-unpopular/${id}`;
    const r0 = await t.request({ method: "PUT", url, token: admin });
    expect(r0.json().data.course.popular).toBe(true);
    expect((await t.request({ method: "PUT", url, token: admin })).json().data.course.popular).toBe(false);
    expect(
      (await t.request({ method: "PUT", url, token: admin, payload: { popular: true } })).json().data.course
        .popular,
    ).toBe(true);
    expect((await t.request({ method: "PUT", url, token: learner.token })).statusCode).toBe(403);
    expect(
      (await t.request({ method: "PUT", url: `/api/v1/courses/popular-unpopular/${missing}`, token: admin }))
        .statusCode,
    ).toBe(404);
  });
});

describe("course lists and single", () => {
  it("lists all (staff, paginated, searchable), active and popular (public)", async () => {
    await create(courseInput({ title_fr: "Cours caché", title_en: "Hidden", active: false, popular: true }));
    await create(
      courseInput({
        title_fr: "Italien vedette",
        title_en: "Italian star",
        target_language: "it",
        popular: true,
      }),
    );
    const all = (await t.request({ method: "GET", url: "/api/v1/courses?pageSize=2", token: admin })).json()
      .data;
    expect(all.courses).toHaveLength(2);
    expect(all.pagination.total).toBeGreaterThan(2);
    const search = (
      await t.request({ method: "GET", url: "/api/v1/courses?search=vedette", token: admin })
    ).json().data;
    expect(search.courses.map((c: { title_en: string }) => c.title_en)).toEqual(["Italian star"]);
    const active = (await t.request({ method: "GET", url: "/api/v1/courses/active?pageSize=100" })).json()
      .data.courses;
    expect(active.every((c: { active: boolean }) => c.active)).toBe(true);
    expect(active.map((c: { title_en: string }) => c.title_en)).not.toContain("Hidden");
    const popular = (await t.request({ method: "GET", url: "/api/v1/courses/popular" })).json().data.courses;
    expect(popular.every((c: { active: boolean; popular: boolean }) => c.active && c.popular)).toBe(true);
    expect(popular.map((c: { title_en: string }) => c.title_en)).toContain("Italian star");
    expect((await t.request({ method: "GET", url: "/api/v1/courses/active?pageSize=500" })).statusCode).toBe(
      422,
    );
  });

  it("gets one by id or slug; an inactive course is 404 except for staff", async () => {
    const hidden = (await create(courseInput({ title_fr: "Brouillon", active: false }))).json().data.course;
    const visible = (await create(courseInput({ title_fr: "Publié" }))).json().data.course;
    expect((await t.request({ method: "GET", url: `/api/v1/courses/single/${visible.id}` })).statusCode).toBe(
      200,
    );
    const bySlug = await t.request({ method: "GET", url: `/api/v1/courses/single/${visible.slug}` });
    expect(bySlug.json().data.course.id).toBe(visible.id);
    expect((await t.request({ method: "GET", url: `/api/v1/courses/single/${hidden.id}` })).statusCode).toBe(
      404,
    );
    expect(
      (await t.request({ method: "GET", url: `/api/v1/courses/single/${hidden.id}`, token: learner.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: "GET", url: `/api/v1/courses/single/${hidden.id}`, token: admin }))
        .statusCode,
    ).toBe(200);
    expect((await t.request({ method: "GET", url: "/api/v1/courses/single/bad%20ref!" })).statusCode).toBe(
      400,
    );
  });
});

describe("learner progress views", () => {
  it("overview and progress: done / total, seconds listened, next lesson, done this week", async () => {
    const { course, free, paid, audio } = await courseWithLessons(t, admin);
    const me = await t.createUser();
    const overviewUrl = `/api/v1/courses/customer/overview/${course.id}`;
    let o = (await t.request({ method: "GET", url: overviewUrl, token: me.token })).json().data.overview;
    expect(o).toMatchObject({ lessons_total: 2, lessons_done: 0, seconds_listened: 0, percent: 0 });
    expect(o.next_lesson).toMatchObject({ id: free.id, locked: false });
    const done = `/api/v1/courses/${course.id}/lessons/done-customer`;
    await t.request({
      method: "POST",
      url: done,
      token: me.token,
      payload: { lesson_id: free.id, done: true },
    });
    o = (await t.request({ method: "GET", url: overviewUrl, token: me.token })).json().data.overview;
    expect(o).toMatchObject({ lessons_done: 1, percent: 50, seconds_listened: audio.audioDuration });
    expect(o.next_lesson).toMatchObject({ id: paid.id, locked: true });
    const progress = (
      await t.request({ method: "GET", url: "/api/v1/courses/customer/progress", token: me.token })
    ).json().data;
    expect(progress.lessons_done_this_week).toBe(1);
    expect(progress.courses).toHaveLength(1);
    expect(progress.courses[0].course.id).toBe(course.id);
    expect(progress.courses[0].overview.lessons_done).toBe(1);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const later = await t.request({
      method: "GET",
      url: `/api/v1/courses/customer/progress?week_start=${future}`,
      token: me.token,
    });
    expect(later.json().data.lessons_done_this_week).toBe(0);
    expect(
      (
        await t.request({
          method: "GET",
          url: "/api/v1/courses/customer/progress?week_start=yesterday",
          token: me.token,
        })
      ).statusCode,
    ).toBe(422);
    expect((await t.request({ method: "GET", url: overviewUrl })).statusCode).toBe(401);
    expect(
      (
        await t.request({
          method: "GET",
          url: `/api/v1/courses/customer/overview/${missing}`,
          token: me.token,
        })
      ).statusCode,
    ).toBe(404);
  });
  it("the progress answer kept in memory follows the learner's progress and the course's edits", async () => {
    const { course, free } = await courseWithLessons(t, admin);
    const me = await t.createUser();
    const progress = async () =>
      (await t.request({ method: "GET", url: "/api/v1/courses/customer/progress", token: me.token })).json()
        .data;
    expect((await progress()).courses).toHaveLength(0);
    await t.request({
      method: "POST",
      url: `/api/v1/courses/${course.id}/lessons/done-customer`,
      token: me.token,
      payload: { lesson_id: free.id, played: true },
    });
    let now = await progress();
    expect(now.courses).toHaveLength(1);
    expect(now.courses[0].overview.lessons_done).toBe(0);
    expect(now.lessons_done_this_week).toBe(0);
    await t.request({
      method: "POST",
      url: `/api/v1/courses/${course.id}/lessons/done-customer`,
      token: me.token,
      payload: { lesson_id: free.id, done: true },
    });
    now = await progress();
    expect(now.courses[0].overview.lessons_done).toBe(1);
    expect(now.lessons_done_this_week).toBe(1);
    // a staff edit of the course shows at once
    const edited = await t.request({
      method: "PUT",
      url: `/api/v1/courses/${course.id}`,
      token: admin,
      payload: { title_en: "Renamed while followed" },
    });
    expect(edited.statusCode).toBe(200);
    expect((await progress()).courses[0].course.title_en).toBe("Renamed while followed");
  });
});

describe("DELETE /v1/courses/{id}", () => {
  it("refuses (409) while learners have progress, deletes with force, files included", async () => {
    const { course, free, audio } = await courseWithLessons(t, admin);
    const premium = await t.createUser();
    await makePremium(t, premium.id);
    await t.request({
      method: "POST",
      url: `/api/v1/courses/${course.id}/lessons/done-customer`,
      token: premium.token,
      payload: { lesson_id: free.id, last_position: 3 },
    });
    const url = `/api/v1/courses/${course.id}`;
    const refused = await t.request({ method: "DELETE", url, token: admin });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe("COURSE_IN_USE");
    expect((await t.request({ method: "DELETE", url, token: learner.token })).statusCode).toBe(403);
    const file = path.join(t.config.media.dir, audio.file_path);
    expect(existsSync(file)).toBe(true);
    const res = await t.request({ method: "DELETE", url: `${url}?force=true`, token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: course.id, deleted_lessons: 2, deleted_files: 1 });
    expect(existsSync(file)).toBe(false);
    expect(await t.database.db.select().from(lessons).where(eq(lessons.courseId, course.id))).toEqual([]);
    expect((await t.request({ method: "DELETE", url, token: admin })).statusCode).toBe(404);
  });

  it("deletes a course nobody follows without force", async () => {
    const { id } = (await create(courseInput())).json().data.course;
    expect(
      (await t.request({ method: "DELETE", url: `/api/v1/courses/${id}`, token: admin })).statusCode,
    ).toBe(200);
  });
});
