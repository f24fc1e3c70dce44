import type { AuditEntry } from "@parlons/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, buildTestApp, PASSWORD, type TestContext } from "../../../test/helpers/build";
import { courseWithLessons } from "../../../test/helpers/learning";

let t: TestContext;
let admin: string;
let adminId: string;
let learner: { id: string; email: string; token: string };
const UA = "Parlons audit test/1.0";

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  adminId = (await t.app.deps.services.users.findByEmail(ADMIN.email))?.id ?? "";
  learner = await t.createUser();
});
afterAll(() => t.close());

/** The admin calling the API from a known browser. */
const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
  t.request({ method, url: `/api${url}`, token: admin, headers: { "user-agent": UA }, payload });

async function entries(query: Record<string, string> = {}): Promise<AuditEntry[]> {
  const res = await t.request({ method: "GET", url: "/api/v1/audit", query, token: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.entries;
}
/** The newest entry of an action (for a target when given). */
async function latest(action: string, targetId?: string): Promise<AuditEntry> {
  const [entry] = await entries({ action, ...(targetId ? { target_id: targetId } : {}) });
  if (!entry) throw new Error(`no ${action} entry`);
  return entry;
}

describe("GET /v1/audit", () => {
  it("needs audit.read: 401 anonymous, 403 customer, 200 for the admin (who holds it from the seed)", async () => {
    expect((await t.request({ method: "GET", url: "/api/v1/audit" })).statusCode).toBe(401);
    expect((await t.request({ method: "GET", url: "/api/v1/audit", token: learner.token })).statusCode).toBe(
      403,
    );
    expect((await t.request({ method: "GET", url: "/api/v1/audit", token: admin })).statusCode).toBe(200);
  });

  it("has no route that changes or deletes an entry", async () => {
    const [any] = await entries();
    const id = any?.id ?? "0190a0a0-0000-7000-8000-00000000dead";
    for (const method of ["PUT", "PATCH", "DELETE"] as const) {
      for (const url of ["/api/v1/audit", `/api/v1/audit/${id}`]) {
        const res = await t.request({ method, url, token: admin, payload: {} });
        expect([404, 405], `${method} ${url}`).toContain(res.statusCode);
      }
    }
    expect((await entries({ target_id: any?.target_id ?? "" })).length).toBeGreaterThan(0);
  });

  it("is append-only in the database too: UPDATE and DELETE are refused by a trigger", async () => {
    await expect(t.database.db.execute(sql`update audit_log set action = 'x'`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
  });

  it("refuses bad filters with 422 and field errors", async () => {
    const bad: Record<string, string>[] = [
      { action: "users.explode" },
      { target_type: "planet" },
      { from: "yesterday" },
      { from: "2030-01-02T00:00:00Z", to: "2030-01-01T00:00:00Z" },
      { pageSize: "1000" },
    ];
    for (const query of bad) {
      const res = await t.request({ method: "GET", url: "/api/v1/audit", query, token: admin });
      expect(res.statusCode, JSON.stringify(query)).toBe(422);
      expect(res.json().code).toBe("VALIDATION_FAILED");
      expect(Object.keys(res.json().errors ?? {}).length).toBeGreaterThan(0);
    }
  });
});

describe("sign-in events", () => {
  it("records failed sign-ins (unknown email, wrong password, disabled account) with IP and user agent", async () => {
    const login = (username: string, password: string) =>
      t.request({
        method: "POST",
        url: "/api/v1/user/authenticate",
        headers: { "user-agent": UA },
        payload: { username, password },
      });
    expect((await login("Nobody@Test.Local", "Wrong-pass1!")).statusCode).toBe(401);
    expect((await login(learner.email, "Wrong-pass1!")).statusCode).toBe(401);
    const disabled = await t.createUser({ status: "DISABLED" });
    expect((await login(disabled.email, PASSWORD)).statusCode).toBe(403);

    const failed = await entries({ action: "auth.login_failed" });
    expect(failed.slice(0, 3).map((e) => [e.actor_email, e.after])).toEqual([
      [disabled.email, { reason: "disabled", method: "password" }],
      [learner.email, { reason: "wrong_password", method: "password" }],
      ["nobody@test.local", { reason: "unknown_email", method: "password" }],
    ]);
    expect(failed[1]).toMatchObject({
      actor_id: null,
      target_type: "user",
      target_id: learner.id,
      ip: "127.0.0.1",
      user_agent: UA,
    });
    expect(failed[2]?.target_id).toBeNull();
    // the password typed is never written
    expect(JSON.stringify(failed)).not.toContain("Wrong-pass1!");
  });

  it("records staff sign-ins, not learners'", async () => {
    const before = (await entries({ action: "auth.staff_login" })).length;
    await t.adminToken();
    await t.login(learner.email, PASSWORD);
    const after = await entries({ action: "auth.staff_login" });
    expect(after.length).toBe(before + 1);
    expect(after[0]).toMatchObject({ actor_id: adminId, actor_email: ADMIN.email, target_id: adminId });
  });
});

describe("accounts, roles and permissions", () => {
  it("records a user created, then its role and status changed, with before and after", async () => {
    const created = await call("POST", "/v1/users/add", {
      email: "staffer@test.local",
      password: "Staffer-pass1!",
      full_name: "Staffer",
      role: "CUSTOMER",
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.user.id;
    const made = await latest("users.create", id);
    expect(made).toMatchObject({ actor_id: adminId, actor_email: ADMIN.email, user_agent: UA, before: null });
    expect(made.after).toMatchObject({ email: "staffer@test.local", role: "CUSTOMER" });
    expect(JSON.stringify(made)).not.toContain("Staffer-pass1!");

    expect((await call("POST", `/v1/users/update/${id}`, { role: "ADMIN" })).statusCode).toBe(200);
    expect(await latest("users.role", id)).toMatchObject({
      before: { role: "CUSTOMER" },
      after: { role: "ADMIN" },
    });
    expect((await call("POST", `/v1/users/status/update?userId=${id}&status=DISABLED`)).statusCode).toBe(200);
    expect(await latest("users.status", id)).toMatchObject({
      before: { status: "ACTIVE" },
      after: { status: "DISABLED" },
    });
    expect((await call("POST", `/v1/users/update/${id}`, { full_name: "Staffer Two" })).statusCode).toBe(200);
    expect(await latest("users.update", id)).toMatchObject({
      before: { full_name: "Staffer" },
      after: { full_name: "Staffer Two" },
    });
  });

  it("records roles created and deleted with their permissions", async () => {
    const res = await call("POST", "/v1/api/role", { title: "AUDITOR", permissions: ["audit.read"] });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.role.id;
    expect((await latest("roles.create", id)).after).toMatchObject({
      title: "AUDITOR",
      permissions: [{ slug: "audit.read" }],
    });
    expect((await call("DELETE", `/v1/api/${id}`)).statusCode).toBe(200);
    expect(await latest("roles.delete", id)).toMatchObject({
      before: { title: "AUDITOR" },
      after: null,
    });
  });
});

describe("plans and subscriptions", () => {
  it("records plan creation, update (the fields that changed) and deletion", async () => {
    const res = await call("POST", "/v1/plans", { name: "Monthly", name_fr: "Mensuel", amount: 990 });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.plan.id;
    expect((await latest("plans.create", id)).after).toMatchObject({ name: "Monthly", amount: 990 });
    expect((await call("PUT", `/v1/plans/${id}`, { amount: 1290 })).statusCode).toBe(200);
    expect(await latest("plans.update", id)).toMatchObject({
      before: { amount: 990 },
      after: { amount: 1290 },
    });
    expect((await call("DELETE", `/v1/plans/${id}`)).statusCode).toBe(200);
    expect(await latest("plans.delete", id)).toMatchObject({ before: { name: "Monthly" }, after: null });
  });

  it("records a subscription cancellation, by whoever made it", async () => {
    const plan = (
      await call("POST", "/v1/plans", { name: "Yearly", name_fr: "Annuel", amount: 9900, interval: "year" })
    ).json().data.plan;
    const subscriber = await t.createUser();
    const post = (url: string) =>
      t.request({ method: "POST", url: `/api/v1/customer-plan${url}`, token: subscriber.token, payload: {} });
    const started = await t.request({
      method: "POST",
      url: "/api/v1/customer-plan",
      token: subscriber.token,
      payload: { plan_id: plan.id },
    });
    const id = started.json().data.customerPlan.id;
    expect((await post(`/demo/${id}/approve`)).statusCode).toBe(200);
    const cancelled = await post(`/cancel/${id}`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const entry = await latest("subscriptions.cancel", id);
    expect(entry).toMatchObject({ actor_id: subscriber.id, target_type: "subscription" });
    expect(entry.after).toMatchObject({ status: "CANCELLED" });
  });
});

describe("settings, content and mail", () => {
  it("records a settings change with the fields before and after", async () => {
    expect((await call("POST", "/v1/settings", { registrations_open: false })).statusCode).toBe(200);
    expect(await latest("settings.update")).toMatchObject({
      before: { registrationsOpen: true },
      after: { registrationsOpen: false },
      user_agent: UA,
    });
    await call("POST", "/v1/settings", { registrations_open: true });
  });

  it("records a lesson deleted, then its course deleted", async () => {
    const { course, free } = await courseWithLessons(t, admin);
    expect((await call("DELETE", `/v1/courses/${course.id}/lessons/${free.id}`)).statusCode).toBe(200);
    expect((await latest("lessons.delete", free.id)).before).toMatchObject({ title_fr: "Bonjour" });
    const removed = await call("DELETE", `/v1/courses/${course.id}?force=true`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await latest("courses.delete", course.id)).before).toMatchObject({ id: course.id });
  });

  it("records courses and lessons created and edited, and a lesson's lines saved, named by their titles", async () => {
    const { course, free } = await courseWithLessons(t, admin);
    const made = await latest("courses.create", course.id);
    expect(made.target_label).toBe(made.after && (made.after as { title_fr: string }).title_fr);
    expect(await latest("lessons.create", free.id)).toMatchObject({ target_label: "Bonjour" });

    const renamed = await call("PUT", `/v1/courses/${course.id}`, { title_fr: "Cours renommé" });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await latest("courses.update", course.id)).toMatchObject({
      target_label: "Cours renommé",
      after: { title_fr: "Cours renommé" },
    });
    // a change of the level alone still names the course
    await call("PUT", `/v1/courses/${course.id}`, { level: "B2" });
    expect(await latest("courses.update", course.id)).toMatchObject({
      target_label: "Cours renommé",
      before: { level: expect.any(String) },
      after: { level: "B2" },
    });
    expect((await latest("courses.update", course.id)).after).not.toHaveProperty("title_fr");

    const lesson = await call("PUT", `/v1/courses/${course.id}/lessons/${free.id}`, { text_fr: "Saluer" });
    expect(lesson.statusCode, lesson.body).toBe(200);
    expect(await latest("lessons.update", free.id)).toMatchObject({
      target_label: "Bonjour",
      after: { text_fr: "Saluer" },
    });

    const url = `/v1/courses/${course.id}/lessons/${free.id}/cues`;
    const cues = (await call("GET", url)).json().data.cues as {
      id: string;
      start: number;
      end: number;
      text: string;
    }[];
    expect(cues.length).toBe(2);
    const [first, second] = cues as [(typeof cues)[0], (typeof cues)[0]];
    const saved = await call("PUT", url, {
      cues: [
        { ...first, text: "¡Hola!" },
        { start: second.start, end: second.end, text: "Buenas tardes." },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const lines = await latest("lessons.lines", free.id);
    expect(lines).toMatchObject({ target_label: "Bonjour", before: { lines: 2 }, after: { lines: 2 } });
    const after = lines.after as { added: string[]; removed: string[]; changed: string[] };
    expect(after.changed).toEqual([first.id]);
    expect(after.removed).toEqual([second.id]);
    expect(after.added).toHaveLength(1);
    // saving the same lines again changes nothing and writes nothing
    const count = (await entries({ action: "lessons.lines", target_id: free.id })).length;
    await call("PUT", url, { cues: (await call("GET", url)).json().data.cues });
    expect(await entries({ action: "lessons.lines", target_id: free.id })).toHaveLength(count);
  });

  it("leaves the sign-ins out on request (sign_ins=hide); a deleted target keeps its name", async () => {
    const { course, paid } = await courseWithLessons(t, admin);
    await call("DELETE", `/v1/courses/${course.id}/lessons/${paid.id}`);
    expect(await latest("lessons.delete", paid.id)).toMatchObject({ target_label: "Au marché" });

    const failed = await t.request({
      method: "POST",
      url: "/api/v1/user/authenticate",
      payload: { username: learner.email, password: "Wrong-pass1!" },
    });
    expect(failed.statusCode).toBe(401);
    expect((await entries())[0]?.action).toBe("auth.login_failed");
    const hidden = await entries({ sign_ins: "hide" });
    expect(hidden[0]?.action).toBe("lessons.delete");
    expect(hidden.some((e) => e.action.startsWith("auth."))).toBe(false);
    const bad = await t.request({
      method: "GET",
      url: "/api/v1/audit",
      query: { sign_ins: "maybe" },
      token: admin,
    });
    expect(bad.statusCode).toBe(422);
  });

  it("records a mail campaign created and sent", async () => {
    const res = await call("POST", "/v1/send-mail/send", {
      subject_fr: "Nouvelles",
      subject_en: "News",
      body_fr: "Bonjour {{full_name}}",
      body_en: "Hello {{full_name}}",
      audience: { role: "CUSTOMER" },
    });
    expect(res.statusCode, res.body).toBe(202);
    const sent = await latest("mail.campaign_send", res.json().data.campaign.id);
    expect(sent.after).toMatchObject({ subject_en: "News" });
  });
});

describe("filters and pages", () => {
  it("filters by actor (id or email), target type and dates, and pages newest first", async () => {
    const byId = await entries({ actor: adminId, pageSize: "100" });
    expect(byId.length).toBeGreaterThan(3);
    expect(byId.every((e) => e.actor_id === adminId)).toBe(true);
    const byEmail = await entries({ actor: "ADMIN@test", pageSize: "100" });
    expect(byEmail.map((e) => e.id)).toEqual(byId.map((e) => e.id));
    const plans = await entries({ target_type: "plan" });
    expect(plans.length).toBeGreaterThan(0);
    expect(plans.every((e) => e.target_type === "plan")).toBe(true);
    expect(await entries({ from: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    expect((await entries({ to: "2000-01-01T00:00:00Z" })).length).toBe(0);

    const all = await t.request({
      method: "GET",
      url: "/api/v1/audit",
      query: { pageSize: "100" },
      token: admin,
    });
    const { entries: everything, pagination } = all.json().data;
    expect(pagination.total).toBe(everything.length);
    const times = everything.map((e: AuditEntry) => Date.parse(e.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const second = await t.request({
      method: "GET",
      url: "/api/v1/audit",
      query: { page: "2", pageSize: "2" },
      token: admin,
    });
    expect(second.json().data.entries.map((e: AuditEntry) => e.id)).toEqual(
      everything.slice(2, 4).map((e: AuditEntry) => e.id),
    );
  });
});
