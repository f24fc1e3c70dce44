import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "./helpers/build";
import { courseWithLessons, makePremium } from "./helpers/learning";

// A signed-in learner's lesson list is answered before routing once the reader, their plan and
// the list are in memory (modules/lessons/routes.ts, plugins/fast-path.ts): the same bytes and
// headers as the route, a 304 on If-None-Match, and every change or revocation seen at once.

let t: TestContext;
let admin: string;
let base: string;
let course: { id: string };
let paidLesson: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  const made = await courseWithLessons(t, admin);
  course = made.course;
  paidLesson = made.paid.id;
  await t.app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

/** Lesson lists answered before routing so far. */
const fastAnswers = () => t.app.fastPath.stats.byRead.lessons ?? 0;

const list = (url: string, token?: string, headers: Record<string, string> = {}) =>
  fetch(base + url, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
const headersOf = (res: Response) => {
  const h = Object.fromEntries(res.headers.entries());
  delete h.date;
  delete h["x-request-id"]; // the route makes one per request; the fast path sends back the caller's
  delete h["keep-alive"];
  delete h.connection;
  return h;
};
type Lesson = { id: string; locked: boolean; title_en: string };
type Body = { code?: string; data: { lessons: Lesson[] } };
const json = async (res: Response | Promise<Response>) => (await (await res).json()) as Body;

describe("signed-in lesson list before routing", () => {
  it("answers the second read from memory with the route's status, headers and bytes, and 304 when unchanged", async () => {
    const learner = await t.createUser();
    const url = `/api/v1/courses/${course.id}/lessons`;
    const before = fastAnswers();
    const routed = await list(url, learner.token);
    expect(routed.status).toBe(200);
    expect(fastAnswers()).toBe(before);
    const fast = await list(url, learner.token);
    expect(fast.status).toBe(200);
    expect(fastAnswers()).toBe(before + 1);
    expect(headersOf(fast)).toEqual(headersOf(routed));
    expect(fast.headers.get("cache-control")).toBe("private, no-cache");
    const body = await fast.text();
    expect(body).toBe(await routed.text());
    expect((JSON.parse(body).data.lessons as Lesson[]).map((l) => l.locked)).toEqual([false, true]);

    const etag = fast.headers.get("etag") as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const revalidated = await list(url, learner.token, { "if-none-match": etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("content-security-policy")).toContain("default-src 'self'");
    expect(fastAnswers()).toBe(before + 2);
    // the route answers 304 the same way (a token it has not seen yet goes through Fastify)
    const other = await t.createUser();
    const first = await list(url, other.token);
    const routed304 = await list(url, other.token, { "if-none-match": first.headers.get("etag") as string });
    expect(routed304.status).toBe(304);

    // a caller's request id comes back, as on every route
    const withId = await list(url, learner.token, { "x-request-id": "trace-123" });
    expect(withId.headers.get("x-request-id")).toBe("trace-123");
  });

  it("a plan change, progress and a revocation show at once", async () => {
    const learner = await t.createUser();
    const url = `/api/v1/courses/${course.id}/lessons`;
    await list(url, learner.token);
    const locked = async () => (await json(list(url, learner.token))).data.lessons.map((l) => l.locked);
    expect(await locked()).toEqual([false, true]);
    await makePremium(t, learner.id);
    expect(await locked()).toEqual([false, false]);

    // progress saved through the API changes the list (its progress field)
    const beforeProgress = await (await list(url, learner.token)).text();
    const saved = await t.request({
      method: "POST",
      url: `/api/v1/courses/${course.id}/lessons/done-customer`,
      token: learner.token,
      headers: { "x-client-time": new Date().toISOString() },
      payload: { lesson_id: paidLesson, done: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await (await list(url, learner.token)).text()).not.toBe(beforeProgress);

    const logout = await t.request({ method: "GET", url: "/api/v1/auth/logout", token: learner.token });
    expect(logout.statusCode).toBeLessThan(300);
    const refused = await list(url, learner.token);
    expect(refused.status).toBe(401);
    expect((await json(refused)).code).toBe("SESSION_REVOKED");
  });

  it("a staff edit of the course shows to the next signed-in read", async () => {
    const learner = await t.createUser();
    const url = `/api/v1/courses/${course.id}/lessons`;
    await list(url, learner.token);
    await list(url, learner.token);
    const res = await t.request({
      method: "PUT",
      url: `/api/v1/courses/${course.id}/lessons/${paidLesson}`,
      token: admin,
      payload: { title_en: "At the market, renamed" },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = await json(list(url, learner.token));
    expect(body.data.lessons.map((l) => l.title_en)).toContain("At the market, renamed");
  });

  it("leaves to the route what it cannot answer: bad tokens, other schemes, encoded ids, queries", async () => {
    const learner = await t.createUser();
    const url = `/api/v1/courses/${course.id}/lessons`;
    await list(url, learner.token);
    const before = fastAnswers();
    const bad = await list(url, "not-a-token");
    expect(bad.status).toBe(401);
    expect((await json(bad)).code).toBe("TOKEN_INVALID");
    const basic = await fetch(base + url, { headers: { authorization: "Basic eDp5" } });
    expect(basic.status).toBe(401);
    const lower = await fetch(base + url, { headers: { authorization: `bearer ${learner.token}` } });
    expect(lower.status).toBe(200);
    const encoded = await list(
      `/api/v1/courses/${encodeURIComponent(course.id).replace("-", "%2D")}/lessons`,
      learner.token,
    );
    expect(encoded.status).toBe(200);
    const withQuery = await list(`${url}?x=1`, learner.token);
    expect(withQuery.status).toBe(200);
    const unknownUrl = `/api/v1/courses/${randomUUID()}/lessons`;
    const unknown = await list(unknownUrl, learner.token);
    expect(unknown.status).toBe(404);
    const unknownAgain = await list(unknownUrl, learner.token);
    expect(unknownAgain.status).toBe(404);
    expect(fastAnswers()).toBe(before);
  });

  it("answers visitors' lists too, and a visitor never gets a learner's answer", async () => {
    const url = `/api/v1/courses/${course.id}/lessons`;
    const learner = await t.createUser();
    await makePremium(t, learner.id);
    await list(url, learner.token);
    await list(url);
    const visitor = await json(list(url));
    expect(visitor.data.lessons.map((l) => l.locked)).toEqual([false, true]);
    const premium = await json(list(url, learner.token));
    expect(premium.data.lessons.map((l) => l.locked)).toEqual([false, false]);
  });
});
