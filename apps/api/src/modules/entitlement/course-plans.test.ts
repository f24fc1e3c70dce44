import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons } from "../../../test/helpers/learning";
import { coursesOf, opensCourse, unionAccess } from "./policy";

// Plans that open chosen courses: a learner's access is what their live plan opens, through the
// one entitlement rule, for every reader (lesson list, done-customer, overview, events).
let t: TestContext;
let admin: string;
let a: Awaited<ReturnType<typeof courseWithLessons>>;
let b: Awaited<ReturnType<typeof courseWithLessons>>;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  a = await courseWithLessons(t, admin);
  b = await courseWithLessons(t, admin);
});
afterAll(() => t.close());

const createPlan = (payload: object) =>
  t.request({ method: "POST", url: "/api/v1/plans", token: admin, payload });
const updatePlan = (id: string, payload: object) =>
  t.request({ method: "PUT", url: `/api/v1/plans/${id}`, token: admin, payload });
const paid = { name_fr: "Cours", amount: 1900, interval: "month" };

/** A learner subscribed through the demo checkout to `planId`. */
async function subscriber(planId: string) {
  const learner = await t.createUser();
  const started = await t.request({
    method: "POST",
    url: "/api/v1/customer-plan",
    token: learner.token,
    payload: { plan_id: planId },
  });
  expect(started.statusCode).toBe(201);
  const id = started.json().data.customerPlan.id;
  const approved = await t.request({
    method: "POST",
    url: `/api/v1/customer-plan/demo/${id}/approve`,
    token: learner.token,
  });
  expect(approved.json().data.customerPlan.status).toBe("ACTIVE");
  return learner;
}

async function lessonList(courseId: string, token: string) {
  const res = await t.request({ method: "GET", url: `/api/v1/courses/${courseId}/lessons`, token });
  expect(res.statusCode).toBe(200);
  const data = res.json().data as { access: string; lessons: { id: string; locked: boolean }[] };
  return { access: data.access, locked: new Map(data.lessons.map((l) => [l.id, l.locked])) };
}

const markDone = (courseId: string, lessonId: string, token: string) =>
  t.request({
    method: "POST",
    url: `/api/v1/courses/${courseId}/lessons/done-customer`,
    token,
    payload: { lesson_id: lessonId, done: true },
  });

describe("access values", () => {
  it("unions grants: every course wins, course lists merge sorted (one spelling per access), none is free", () => {
    expect(unionAccess([])).toBe("free");
    expect(unionAccess(["free", ["b", "a"], ["a"]])).toBe("courses:a,b");
    expect(unionAccess(["courses:c", ["a"]])).toBe("courses:a,c");
    expect(unionAccess([["a"], "all"])).toBe("all");
    expect(opensCourse("courses:a", "a")).toBe(true);
    expect(opensCourse("courses:a,b", "b")).toBe(true);
    expect(opensCourse("courses:a", "b")).toBe(false);
    expect(opensCourse("free", "a")).toBe(false);
    expect(coursesOf("courses:a,b")).toEqual(["a", "b"]);
    expect(coursesOf("all")).toEqual([]);
  });
});

describe("plans of chosen courses: the staff editor's rules", () => {
  it("stores the courses of a single-course plan and shows them in the public list", async () => {
    const res = await createPlan({ ...paid, name: "Course A", scope: "courses", course_ids: [a.course.id] });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.plan).toMatchObject({ scope: "courses", course_ids: [a.course.id] });
    const active = await t.request({ method: "GET", url: "/api/v1/plans/active" });
    const listed = active.json().data.plans.find((p: { id: string }) => p.id === res.json().data.plan.id);
    expect(listed).toMatchObject({ scope: "courses", course_ids: [a.course.id] });
    // a plan of every course names none
    const all = await createPlan({ ...paid, name: "Everything" });
    expect(all.json().data.plan).toMatchObject({ scope: "all", course_ids: [] });
  });

  it("refuses a plan of chosen courses without courses, with unknown ones, or a plan of every course naming some", async () => {
    for (const payload of [
      { ...paid, name: "Empty", scope: "courses", course_ids: [] },
      { ...paid, name: "Empty", scope: "courses" },
      { ...paid, name: "Unknown", scope: "courses", course_ids: ["00000000-0000-4000-8000-000000000000"] },
      { ...paid, name: "Mixed", scope: "all", course_ids: [a.course.id] },
    ]) {
      const res = await createPlan(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().code).toBe("VALIDATION_FAILED");
      expect(Object.keys(res.json().errors)).toEqual(["course_ids"]);
    }
    const bad = await createPlan({ ...paid, name: "Bad", scope: "courses", course_ids: ["nope"] });
    expect(bad.statusCode).toBe(422);
  });

  it("edits the courses; switching to every course drops them", async () => {
    const plan = (
      await createPlan({ ...paid, name: "Edit", scope: "courses", course_ids: [a.course.id] })
    ).json().data.plan;
    const both = await updatePlan(plan.id, { course_ids: [b.course.id, a.course.id, a.course.id] });
    expect(both.statusCode).toBe(200);
    expect([...both.json().data.plan.course_ids].sort()).toEqual([a.course.id, b.course.id].sort());
    const unchanged = await updatePlan(plan.id, { name: "Renamed" });
    expect(unchanged.json().data.plan.course_ids).toHaveLength(2);
    const all = await updatePlan(plan.id, { scope: "all" });
    expect(all.json().data.plan).toMatchObject({ scope: "all", course_ids: [] });
    const none = await updatePlan(plan.id, { scope: "courses" });
    expect(none.statusCode).toBe(422);
  });
});

describe("plans of chosen courses: what a subscriber opens", () => {
  it("a single-course plan opens that course's premium lessons and no other's", async () => {
    const plan = (
      await createPlan({ ...paid, name: "Only A", scope: "courses", course_ids: [a.course.id] })
    ).json().data.plan;
    const learner = await subscriber(plan.id);

    const inA = await lessonList(a.course.id, learner.token);
    expect(inA.access).toBe("all");
    expect(inA.locked.get(a.paid.id)).toBe(false);
    const inB = await lessonList(b.course.id, learner.token);
    expect(inB.access).toBe("free");
    expect(inB.locked.get(b.paid.id)).toBe(true);
    expect(inB.locked.get(b.free.id)).toBe(false);

    expect((await markDone(a.course.id, a.paid.id, learner.token)).statusCode).toBe(200);
    const refused = await markDone(b.course.id, b.paid.id, learner.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe("PREMIUM_REQUIRED");

    const principal = await t.app.deps.services.users.loadPrincipal(learner.id);
    if (!principal) throw new Error("no principal");
    const access = await t.app.deps.services.entitlement.accessOf(principal);
    expect(access).toBe(`courses:${a.course.id}`);
    // premium-only events are for whoever opens every course
    expect(t.app.deps.services.entitlement.canJoinEvent(access, { premium_only: true })).toBe(false);

    // staff add course B to the plan: the subscriber opens it at once (the plans topic forgets access levels)
    expect((await updatePlan(plan.id, { course_ids: [a.course.id, b.course.id] })).statusCode).toBe(200);
    expect((await lessonList(b.course.id, learner.token)).locked.get(b.paid.id)).toBe(false);
  });

  it("a plan of every course opens both", async () => {
    const plan = (await createPlan({ ...paid, name: "All" })).json().data.plan;
    const learner = await subscriber(plan.id);
    expect((await lessonList(a.course.id, learner.token)).locked.get(a.paid.id)).toBe(false);
    expect((await lessonList(b.course.id, learner.token)).locked.get(b.paid.id)).toBe(false);
  });

  it("the course overview's next lesson is locked by the plan's courses", async () => {
    const plan = (
      await createPlan({ ...paid, name: "Only B", scope: "courses", course_ids: [b.course.id] })
    ).json().data.plan;
    const learner = await subscriber(plan.id);
    expect((await markDone(a.course.id, a.free.id, learner.token)).statusCode).toBe(200);
    const res = await t.request({
      method: "GET",
      url: `/api/v1/courses/customer/overview/${a.course.id}`,
      token: learner.token,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.overview.next_lesson).toMatchObject({ id: a.paid.id, locked: true });
  });
});
