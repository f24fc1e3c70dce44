import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "./helpers/build";
import { courseInput, uploadAudio, uploadCover } from "./helpers/learning";

// Public reads answered from memory (lib/response-cache.ts): every staff edit is visible to the
// next read, conditional requests get 304, and the shortcut before routing answers the same bytes.

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

type Course = { id: string; slug: string; title_en: string; lessons_count: number; cover_url: string | null };
const get = (url: string, headers: Record<string, string> = {}) => t.request({ method: "GET", url, headers });
const titles = async (url: string) =>
  ((await get(url)).json().data.courses as Course[]).map((c) => c.title_en).sort();
const staff = (method: "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.request({ method, url, token: admin, ...(payload ? { payload } : {}) });

// the course form sends every field (a partial body would reset the others to their defaults)
const editCourse = (id: string, over: Record<string, unknown>) =>
  staff("PUT", `/api/v1/courses/${id}`, courseInput(over));

/** A course goes live again only with a published lesson that has audio (COURSE_NOT_PUBLISHABLE). */
async function addPublishableLesson(courseId: string) {
  const { file_path } = await uploadAudio(t, admin);
  const res = await staff("POST", `/api/v1/courses/${courseId}/lessons`, {
    title_fr: "Écoute",
    title_en: "Listening",
    audio: file_path,
  });
  expect(res.statusCode).toBe(201);
}

async function createCourse(over: Record<string, unknown>) {
  const res = await staff("POST", "/api/v1/courses", courseInput(over));
  expect(res.statusCode).toBe(201);
  return res.json().data.course as Course;
}

describe("public reads follow every staff edit (one process)", () => {
  // the variants the web asks for: catalogue first page, full catalogue with filters, home page
  const variants = [
    "/api/v1/courses/active",
    "/api/v1/courses/active?page=1&pageSize=6",
    "/api/v1/courses/active?page=1&pageSize=12&level=B2",
    "/api/v1/courses/active?page=1&pageSize=12&search=Cache",
  ];

  it("course lists: create, rename, deactivate, popular toggle, lessons, cover, delete", async () => {
    for (const url of [...variants, "/api/v1/courses/popular?pageSize=6"]) await get(url); // warm
    const course = await createCourse({ title_en: "Cache course", level: "B2" });
    for (const url of variants) expect(await titles(url)).toContain("Cache course");
    expect(await titles("/api/v1/courses/popular?pageSize=6")).not.toContain("Cache course");

    await editCourse(course.id, { title_en: "Cache course renamed", level: "B2" });
    for (const url of variants) expect(await titles(url)).toContain("Cache course renamed");

    await staff("PUT", `/api/v1/courses/popular-unpopular/${course.id}`, { popular: true });
    expect(await titles("/api/v1/courses/popular?pageSize=6")).toContain("Cache course renamed");

    const lesson = await staff("POST", `/api/v1/courses/${course.id}/lessons`, {
      title_fr: "Un",
      title_en: "One",
    });
    expect(lesson.statusCode).toBe(201);
    const count = async () =>
      ((await get("/api/v1/courses/active?page=1&pageSize=6")).json().data.courses as Course[]).find(
        (c) => c.id === course.id,
      )?.lessons_count;
    expect(await count()).toBe(1);
    const lessonId = lesson.json().data.lesson.id;
    await staff("PUT", `/api/v1/courses/${course.id}/lessons/update-by-column/${lessonId}`, {
      column: "active",
      value: false,
    });
    expect(await count()).toBe(0);

    const cover = await uploadCover(t, admin);
    await editCourse(course.id, { title_en: "Cache course renamed", level: "B2", popular: true, cover });
    const single = (await get(`/api/v1/courses/single/${course.id}`)).json().data.course as Course;
    expect(single.cover_url).toBe(`/api/v1/media/${cover}`);

    await editCourse(course.id, { title_en: "Cache course renamed", level: "B2", active: false });
    for (const url of variants) expect(await titles(url)).not.toContain("Cache course renamed");
    await addPublishableLesson(course.id);
    expect((await editCourse(course.id, { title_en: "Cache course renamed", level: "B2" })).statusCode).toBe(
      200,
    );
    expect(await titles(variants[0] as string)).toContain("Cache course renamed");

    expect((await staff("DELETE", `/api/v1/courses/${course.id}?force=true`)).statusCode).toBe(200);
    for (const url of variants) expect(await titles(url)).not.toContain("Cache course renamed");
  });

  it("course page: by id and by slug; deactivated is 404 for visitors and still shown to staff", async () => {
    const course = await createCourse({ title_en: "Page course" });
    const byId = `/api/v1/courses/single/${course.id}`;
    const bySlug = `/api/v1/courses/single/${course.slug}`;
    expect((await get(byId)).json().data.course.title_en).toBe("Page course");
    expect((await get(bySlug)).json().data.course.title_en).toBe("Page course");
    await editCourse(course.id, { title_en: "Page course, second edition" });
    expect((await get(byId)).json().data.course.title_en).toBe("Page course, second edition");
    expect((await get(bySlug)).json().data.course.title_en).toBe("Page course, second edition");
    await editCourse(course.id, { title_en: "Page course, second edition", active: false });
    expect((await get(byId)).statusCode).toBe(404);
    expect((await get(bySlug)).statusCode).toBe(404);
    const forStaff = await t.request({ method: "GET", url: byId, token: admin });
    expect(forStaff.statusCode).toBe(200);
    expect(forStaff.json().data.course.active).toBe(false);
    await addPublishableLesson(course.id);
    expect((await editCourse(course.id, { title_en: "Page course, second edition" })).statusCode).toBe(200);
    expect((await get(byId)).statusCode).toBe(200);
    // an unknown course is remembered as unknown until a course is created
    expect((await get("/api/v1/courses/single/not-yet-there")).statusCode).toBe(404);
    await createCourse({ title_en: "Not yet there", slug: "not-yet-there" });
    expect((await get("/api/v1/courses/single/not-yet-there")).statusCode).toBe(200);
  });

  it("active plans: create, rename, deactivate", async () => {
    const names = async () =>
      ((await get("/api/v1/plans/active")).json().data.plans as { name: string }[]).map((p) => p.name);
    const before = await names();
    const created = await staff("POST", "/api/v1/plans", {
      name: "Cache plan",
      name_fr: "Formule cache",
      amount: 500,
      currency: "EUR",
      interval: "month",
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.plan.id as string;
    expect(await names()).toContain("Cache plan");
    await staff("PUT", `/api/v1/plans/${id}`, { name: "Cache plan renamed" });
    expect(await names()).toContain("Cache plan renamed");
    await staff("PUT", `/api/v1/plans/${id}`, { active: false });
    expect(await names()).not.toContain("Cache plan renamed");
    await staff("DELETE", `/api/v1/plans/${id}`);
    expect(await names()).toEqual(before);
  });

  it("public settings", async () => {
    const contact = async () => (await get("/api/v1/settings")).json().data.setting.contact_email;
    const before = await contact();
    await staff("POST", "/api/v1/settings", { contact_email: "cache@parlons.test" });
    expect(await contact()).toBe("cache@parlons.test");
    await staff("POST", "/api/v1/settings", { contact_email: before });
    expect(await contact()).toBe(before);
  });
});

describe("validators", () => {
  it("sends a strong ETag and answers 304 to If-None-Match until the data changes", async () => {
    for (const url of ["/api/v1/courses/active", "/api/v1/plans/active", "/api/v1/settings"]) {
      const first = await get(url);
      const etag = String(first.headers.etag);
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(first.headers["cache-control"]).toBe("no-cache");
      const again = await get(url, { "if-none-match": `"other", ${etag}` });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe("");
      expect(again.headers.etag).toBe(etag);
      expect((await get(url, { "if-none-match": `W/${etag}` })).statusCode).toBe(304);
      expect((await get(url, { "if-none-match": '"other"' })).statusCode).toBe(200);
    }
    const etag = String((await get("/api/v1/courses/active")).headers.etag);
    await createCourse({ title_en: "Changes the list" });
    const changed = await get("/api/v1/courses/active", { "if-none-match": etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });
});

describe("answered before routing", () => {
  let base: string;
  beforeAll(async () => {
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  const headersOf = (res: Response) => {
    const h = Object.fromEntries(res.headers.entries());
    delete h.date;
    return h;
  };

  it("answers a URL seen before with the same status, headers and bytes as the route", async () => {
    // the caller names its request (a proxy would): both answers then carry that id, whichever
    // path answered (without one, a routed answer has an id of its own and the fast one none)
    const named = { "x-request-id": "trace-1" };
    const fastBefore = t.app.fastPath.stats.ok;
    for (const url of [
      "/api/v1/courses/active?page=1&pageSize=7",
      "/api/v1/plans/active",
      "/api/v1/settings",
    ]) {
      const routed = await fetch(base + url, { headers: named });
      const fast = await fetch(base + url, { headers: named });
      expect(fast.status).toBe(200);
      expect(fast.headers.get("x-request-id")).toBe("trace-1");
      expect(headersOf(fast)).toEqual(headersOf(routed));
      expect(await fast.text()).toBe(await routed.text());
      const etag = fast.headers.get("etag") as string;
      const revalidated = await fetch(base + url, { headers: { "if-none-match": etag } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.headers.get("content-security-policy")).toContain("default-src 'self'");
    }
    // the second fetches were answered before routing (a change noticed late may send one to the route)
    expect(t.app.fastPath.stats.ok - fastBefore).toBeGreaterThanOrEqual(2);
  });

  it("answers the new bytes after a change, and leaves requests with a token to the route", async () => {
    const url = "/api/v1/courses/active?pageSize=50";
    await fetch(base + url);
    await createCourse({ title_en: "Seen before routing" });
    const res = await fetch(base + url);
    const body = (await res.json()) as { data: { courses: Course[] } };
    expect(body.data.courses.map((c) => c.title_en)).toContain("Seen before routing");
    const withBadToken = await fetch(`${base}/api/v1/courses/single/whatever`, {
      headers: { authorization: "Bearer nope" },
    });
    expect(withBadToken.status).toBe(401);
  });
});
