import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakePaypal } from "../../../test/fakes/paypal-server";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons, createCourse } from "../../../test/helpers/learning";
import { fakePaypalEnv } from "../../../test/helpers/paypal";

let t: TestContext;
let fake: FakePaypal;
let admin: string;
beforeAll(async () => {
  const paypal = await fakePaypalEnv();
  fake = paypal.fake;
  t = await buildTestApp({ env: paypal.env });
  admin = await t.adminToken();
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

type Opens = { id: string; premium: boolean; scope: string; opens: string[]; courses: { id: string }[] };
async function onSale(): Promise<Opens[]> {
  const res = await t.request({ method: "GET", url: "/api/v1/plans/active" });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.plans;
}
const opensOf = async (id: string) => (await onSale()).find((p) => p.id === id);
const hours = (n: number) => new Date(Date.now() + n * 3_600_000).toISOString();

async function create(url: string, payload: object): Promise<string> {
  const res = await t.request({ method: "POST", url, token: admin, payload });
  expect(res.statusCode, res.body).toBe(201);
  const data = res.json().data;
  return (data.plan ?? data.event).id;
}
const event = (premium_only: boolean, over: object = {}) =>
  create("/api/v1/events", {
    title_fr: "Atelier",
    title_en: "Workshop",
    kind: "online",
    online_url: "https://meet.example.com/room",
    starts_at: hours(48),
    ends_at: hours(49),
    capacity: 5,
    premium_only,
    ...over,
  });

describe("the public plans say what each opens among what exists (issue 24)", () => {
  it("derives each list from the courses, lessons and events there are, and follows their changes", async () => {
    const free = (await onSale()).find((p) => !p.premium);
    expect(free).toBeDefined();
    const freeId = free?.id ?? "";
    const all = await create("/api/v1/plans", {
      name: "All",
      name_fr: "Tout",
      amount: 990,
      interval: "month",
    });
    // an empty catalogue: nothing to sell
    expect((await opensOf(freeId))?.opens).toEqual([]);
    expect((await opensOf(all))?.opens).toEqual([]);

    const { course } = await courseWithLessons(t, admin);
    const empty = await createCourse(t, admin, { title_fr: "Vide", title_en: "Empty" });
    expect((await opensOf(freeId))?.opens).toEqual([
      "freeLessons",
      "transcripts",
      "repeatAfterMe",
      "review",
      "offlineFree",
    ]);
    // no event for subscribers yet: a paid plan does not sell one
    expect((await opensOf(all))?.opens).toEqual(["allLessons", "offlineAll"]);
    await event(false);
    await event(true, { active: false });
    expect((await opensOf(all))?.opens).toEqual(["allLessons", "offlineAll"]);

    const premiumEvent = await event(true);
    expect((await opensOf(all))?.opens).toEqual(["allLessons", "offlineAll", "premiumEvents"]);
    // the paid plan lists only what it adds to the free plan
    const freeOpens = (await opensOf(freeId))?.opens ?? [];
    expect((await opensOf(all))?.opens.filter((f) => freeOpens.includes(f))).toEqual([]);
    const off = await t.request({
      method: "PUT",
      url: `/api/v1/events/${premiumEvent}`,
      token: admin,
      payload: { active: false },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await opensOf(all))?.opens).toEqual(["allLessons", "offlineAll"]);

    // a plan of chosen courses: the live ones it names that hold a lesson, by their titles
    const chosen = await create("/api/v1/plans", {
      name: "Spanish",
      name_fr: "Espagnol",
      amount: 4900,
      interval: "once",
      scope: "courses",
      course_ids: [course.id, empty.id],
    });
    expect(await opensOf(chosen)).toMatchObject({
      opens: ["courseLessons", "offlineCourses"],
      courses: [{ id: course.id, title_fr: "Espagnol pour débutants", title_en: "Spanish for beginners" }],
    });
    expect((await opensOf(all))?.courses).toEqual([]);

    // the course goes off line: nothing of it is sold any more
    const hidden = await t.request({
      method: "PUT",
      url: `/api/v1/courses/${course.id}`,
      token: admin,
      payload: { active: false },
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(await opensOf(chosen)).toMatchObject({ opens: [], courses: [] });
    expect((await opensOf(freeId))?.opens).toEqual([]);
  });
});
