import { COLLECTION_LIMITS } from "@parlons/contract";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lessons, plans, roles, userRoles, users } from "../src/db/schema";
import { createCountCache } from "../src/lib/count-cache";
import { buildTestApp, type TestContext } from "./helpers/build";
import { courseInput } from "./helpers/learning";

// The staff lists' rewrites for large tables (docs/performance.md) and the bounds of the
// collections that routes return whole.

let t: TestContext;
let admin: string;
beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
});
afterAll(() => t.close());

type ListedUser = { id: string; email: string; role: string; created_at: string };
const list = async (url: string, payload: object) => {
  const res = await t.request({ method: "POST", url, token: admin, payload });
  expect(res.statusCode).toBe(200);
  return res.json().data as { users: ListedUser[]; pagination: { total: number } };
};

describe("staff user list: pages read from the index order", () => {
  it("pages cover the filtered users once each, newest first, with the filtered total", async () => {
    const made = [];
    for (let i = 0; i < 5; i += 1) made.push(await t.createUser({ email: `pagetest${i}@example.com` }));
    // two share one creation time: the id breaks the tie, so pages neither repeat nor skip one
    await t.database.db.execute(
      sql`update users set created_at = '2026-01-01T00:00:00Z' where email in ('pagetest1@example.com', 'pagetest2@example.com')`,
    );
    await t.database.db.execute(
      sql`update user_roles set user_created_at = '2026-01-01T00:00:00Z' where user_id in
          (select id from users where email in ('pagetest1@example.com', 'pagetest2@example.com'))`,
    );
    const staff = await t.createUser({ email: "pagetest-staff@example.com", role: "ADMIN" });

    const pages = [];
    for (const page of [1, 2, 3, 4]) {
      pages.push(await list("/api/v1/users", { page, pageSize: 2, search: "pagetest" }));
    }
    const ids = pages.flatMap((p) => p.users.map((u) => u.id));
    expect(new Set(ids).size).toBe(6);
    expect(pages.map((p) => p.users.length)).toEqual([2, 2, 2, 0]);
    expect(pages.every((p) => p.pagination.total === 6)).toBe(true);
    const ordered = pages.flatMap((p) => p.users);
    const key = (u: ListedUser) => [-Date.parse(u.created_at), u.id] as const;
    const sorted = [...ordered].sort((a, b) => {
      const [ta, ia] = key(a);
      const [tb, ib] = key(b);
      return ta - tb || (ia < ib ? -1 : ia > ib ? 1 : 0);
    });
    expect(ordered.map((u) => u.id)).toEqual(sorted.map((u) => u.id));

    // the role filter (a semi-join on the user's roles) with and without a search
    const customers = await list("/api/v1/users/customers", { pageSize: 100, search: "pagetest" });
    expect(customers.users.map((u) => u.id).sort()).toEqual(made.map((u) => u.id).sort());
    expect(customers.pagination.total).toBe(5);
    const admins = await list("/api/v1/users", { pageSize: 100, role: "ADMIN" });
    expect(admins.users.map((u) => u.id)).toContain(staff.id);
    expect(admins.users.every((u) => u.role === "ADMIN")).toBe(true);
    expect(admins.pagination.total).toBe(admins.users.length);
    // a role-only total counts the role's holders
    const allCustomers = await list("/api/v1/users/customers", { pageSize: 1 });
    const [row] = await t.database.db
      .select({ n: count() })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.roleId))
      .where(eq(roles.title, "CUSTOMER"));
    expect(allCustomers.pagination.total).toBe(row?.n);
  });

  it("a role-only page reads the role's index in the same order as the filtered path", async () => {
    const made: { id: string }[] = [];
    for (let i = 0; i < 7; i += 1) made.push(await t.createUser({ email: `roleorder${i}@example.com` }));
    // several created in the same millisecond (and some in the same microsecond): both copies move
    // together, as a user's creation time is copied into `user_roles` and never changes after
    const stamps = ["00.000100", "00.000200", "00.000200", "00.000200", "00.000900", "01.5", "01.5"];
    for (const [i, u] of made.entries()) {
      const at = `2026-02-01T00:00:${stamps[i]}Z`;
      await t.database.db.execute(sql`update users set created_at = ${at} where id = ${u.id}`);
      await t.database.db.execute(sql`update user_roles set user_created_at = ${at} where user_id = ${u.id}`);
    }
    const expected = (await t.database.db.execute(
      sql`select u.id from users u
          where exists (select 1 from user_roles ur join roles r on r.id = ur.role_id
                        where ur.user_id = u.id and r.title = 'CUSTOMER')
          order by u.created_at desc, u.id asc`,
    )) as unknown as { rows: { id: string }[] };
    const expectedIds = expected.rows.map((r) => r.id);
    const total = expectedIds.length;
    const pageSize = 3;
    const ids: string[] = [];
    for (let page = 1; (page - 1) * pageSize < total + pageSize; page += 1) {
      const res = await list("/api/v1/users", { page, pageSize, role: "CUSTOMER" });
      expect(res.pagination.total).toBe(total);
      ids.push(...res.users.map((u) => u.id));
    }
    expect(ids).toEqual(expectedIds);
    // a role combined with a search keeps the semi-join: the same relative order
    const searched = await list("/api/v1/users", { pageSize: 100, role: "CUSTOMER", search: "roleorder" });
    expect(searched.users.map((u) => u.id)).toEqual(
      expectedIds.filter((id) => made.some((m) => m.id === id)),
    );
  });

  it("a user created, then given another role, is listed under that role with its creation time", async () => {
    const u = await t.createUser({ email: "rolechange@example.com" });
    const res = await t.request({
      method: "POST",
      url: `/api/v1/users/update/${u.id}`,
      token: admin,
      payload: { role: "ADMIN" },
    });
    expect(res.statusCode).toBe(200);
    const admins = await list("/api/v1/users", { pageSize: 100, role: "ADMIN" });
    expect(admins.users.map((x) => x.id)).toContain(u.id);
    const customers = await list("/api/v1/users", { pageSize: 100, role: "CUSTOMER" });
    expect(customers.users.map((x) => x.id)).not.toContain(u.id);
    // every row's copy equals its user's creation time, to the microsecond
    const [row] = await t.database.db
      .select({ n: count() })
      .from(userRoles)
      .innerJoin(users, eq(users.id, userRoles.userId))
      .where(sql`${userRoles.userCreatedAt} <> ${users.createdAt}`);
    expect(row?.n).toBe(0);
  });

  it("refuses a page size above the maximum (100) with 422", async () => {
    const res = await t.request({
      method: "POST",
      url: "/api/v1/users",
      token: admin,
      payload: { pageSize: 101 },
    });
    expect(res.statusCode).toBe(422);
    const courses = await t.request({ method: "GET", url: "/api/v1/courses?pageSize=101", token: admin });
    expect(courses.statusCode).toBe(422);
  });
});

describe("count cache", () => {
  it("counts small totals afresh, reuses large ones until they expire or are cleared", async () => {
    const cache = createCountCache({ ttlMs: 1000, minRows: 100 });
    let calls = 0;
    const count = (n: number) => async () => {
      calls += 1;
      return n;
    };
    expect(await cache.get("small", count(5), 0)).toBe(5);
    expect(await cache.get("small", count(6), 1)).toBe(6);
    expect(await cache.get("large", count(500), 0)).toBe(500);
    expect(await cache.get("large", count(501), 999)).toBe(500);
    expect(await cache.get("large", count(502), 1000)).toBe(502);
    cache.clear();
    expect(await cache.get("large", count(503), 1001)).toBe(503);
    expect(calls).toBe(5);
  });
});

describe("collections returned whole are bounded where they grow", () => {
  it("a course holds at most COLLECTION_LIMITS.lessonsPerCourse lessons: one more is 409 LIMIT_REACHED", async () => {
    const course = (
      await t.request({ method: "POST", url: "/api/v1/courses", token: admin, payload: courseInput() })
    ).json().data.course as { id: string };
    const max = COLLECTION_LIMITS.lessonsPerCourse;
    await t.database.db.insert(lessons).values(
      Array.from({ length: max - 1 }, (_, i) => ({
        courseId: course.id,
        position: i,
        titleFr: `Leçon ${i}`,
        titleEn: `Lesson ${i}`,
      })),
    );
    const create = () =>
      t.request({
        method: "POST",
        url: `/api/v1/courses/${course.id}/lessons`,
        token: admin,
        payload: { title_fr: "Dernière", title_en: "Last" },
      });
    expect((await create()).statusCode).toBe(201);
    const refused = await create();
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe("LIMIT_REACHED");
    const listed = await t.request({
      method: "GET",
      url: `/api/v1/courses/${course.id}/lessons`,
      token: admin,
    });
    expect(listed.json().data.lessons).toHaveLength(max);
  });

  it("at most COLLECTION_LIMITS.plans plans and COLLECTION_LIMITS.roles roles", async () => {
    const planRows = (await t.database.db.select().from(plans)).length;
    await t.database.db.insert(plans).values(
      Array.from({ length: COLLECTION_LIMITS.plans - planRows }, (_, i) => ({
        name: `Filler ${i}`,
        nameFr: `Remplissage ${i}`,
        active: false,
      })),
    );
    const plan = await t.request({
      method: "POST",
      url: "/api/v1/plans",
      token: admin,
      payload: { name: "One more", name_fr: "Encore un", amount: 0, currency: "EUR", interval: "month" },
    });
    expect(plan.statusCode).toBe(409);
    expect(plan.json().code).toBe("LIMIT_REACHED");

    const roleRows = (await t.database.db.select().from(roles)).length;
    await t.database.db
      .insert(roles)
      .values(
        Array.from({ length: COLLECTION_LIMITS.roles - roleRows }, (_, i) => ({ title: `FILLER_${i}` })),
      );
    const role = await t.request({
      method: "POST",
      url: "/api/v1/api/role",
      token: admin,
      payload: { title: "ONE_MORE", permissions: [] },
    });
    expect(role.statusCode).toBe(409);
    expect(role.json().code).toBe("LIMIT_REACHED");
  });
});

describe("learner dashboard: courses in progress in one query", () => {
  it("lists the courses with progress, latest activity first, without the ones the learner may not see", async () => {
    const make = async (title: string, active = true) =>
      (
        await t.request({
          method: "POST",
          url: "/api/v1/courses",
          token: admin,
          payload: courseInput({ title_fr: title, title_en: title, active }),
        })
      ).json().data.course as { id: string };
    const older = await make("Plus ancien");
    const newer = await make("Plus récent");
    const hidden = await make("Retiré", false);
    const me = await t.createUser();
    const lessonOf = async (courseId: string) =>
      (
        await t.request({
          method: "POST",
          url: `/api/v1/courses/${courseId}/lessons`,
          token: admin,
          payload: { title_fr: "Une", title_en: "One", free: true },
        })
      ).json().data.lesson as { id: string };
    for (const [course, hoursAgo] of [
      [older, 2],
      [hidden, 1],
      [newer, 0],
    ] as const) {
      const lesson = await lessonOf(course.id);
      // written directly: an inactive course takes no progress from learners any more
      await t.database.db.execute(
        sql`insert into lesson_progress (user_id, lesson_id, done, done_at, updated_at)
            values (${me.id}, ${lesson.id}, true, now(), now() - make_interval(hours => ${hoursAgo}))`,
      );
    }
    const progress = (
      await t.request({ method: "GET", url: "/api/v1/courses/customer/progress", token: me.token })
    ).json().data;
    expect(progress.courses.map((c: { course: { id: string } }) => c.course.id)).toEqual([
      newer.id,
      older.id,
    ]);
    expect(progress.lessons_done_this_week).toBe(3);
  });
});
