import { ALL_PERMISSIONS, type PermissionSlug } from "@parlons/contract";
import type { FastifySchema } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { certificates, customerPlans, payments, plans, purchases } from "../src/db/schema";
import type { AppError } from "../src/lib/errors";
import type { Principal } from "../src/modules/users/service";
import { type AccessRule, accessErrors, type RouteAccess } from "../src/plugins/access";
import { buildTestApp, type TestContext } from "./helpers/build";
import { makePremium } from "./helpers/learning";
import { EVERY_POWER } from "./helpers/principal";
import {
  asText,
  isZod,
  jsonSchemaOf,
  PARAM_EXAMPLES,
  sampleInvalid,
  sampleValid,
  type Zod,
} from "./helpers/route-inputs";
import { type Audience, ROUTE_AUDIENCES } from "./route-audiences";

/**
 * Every route of the live route table (`app.routeAccess`) × seven callers × a valid and an
 * invalid input, against who may call it as `route-audiences.ts` says (a table written apart from
 * the routes, so that a route declaring the wrong rule fails here): a caller the audience refuses
 * gets exactly an access refusal (401, 403 or 404) whatever the input; a caller it lets in never
 * gets one, and gets 400/422 for the invalid input. A new route needs its line in the table.
 */

type CallerName =
  | "anonymous"
  | "customer"
  | "other customer"
  | "premium customer"
  | "staff without"
  | "staff with"
  | "admin";
const CALLERS: CallerName[] = [
  "anonymous",
  "customer",
  "other customer",
  "premium customer",
  "staff without",
  "staff with",
  "admin",
];

interface Caller {
  id: string | null;
  token?: string;
  principal: Principal | null;
}

interface Input {
  params: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const texts = { subject_fr: "Sujet", subject_en: "Subject", body_fr: "Texte", body_en: "Text" };
/** What the schema sampler cannot guess (rules between fields), merged over its sample. */
const EXAMPLES: Record<string, { body?: Record<string, unknown> }> = {
  "POST /api/v1/user/self-register": { body: { email: "matrix-signup@test.local" } },
  "POST /api/v1/courses/:courseId/lessons/done-customer": { body: { done: true } },
  "POST /api/v1/send-mail": { body: { ...texts, audience: { role: "NOBODY" } } },
  "POST /api/v1/send-mail/send": { body: { ...texts, audience: { role: "NOBODY" } } },
  "POST /api/v1/send-mail/test": { body: texts },
  "POST /api/v1/events": { body: { starts_at: inDays(7), ends_at: inDays(8) } },
  "POST /api/v1/coupons": { body: { code: "MATRIX", percent_off: 10 } },
  "PUT /api/v1/coupons/:id": { body: { code: "MATRIX", percent_off: 10 } },
  "PUT /api/v1/configs/:key": { body: { description: "Matrix" } },
  "PUT /api/v1/habit/settings": { body: { goal_minutes: 15 } },
  "POST /api/v1/push/subscriptions": {
    body: {
      endpoint: "https://fcm.googleapis.com/fcm/send/matrix",
      keys: { p256dh: `B${"A".repeat(86)}`, auth: "A".repeat(22) },
    },
  },
  "POST /api/v1/courses/:courseId/glossary": { body: { meaning_fr: "sens" } },
  "PUT /api/v1/courses/:courseId/glossary/:id": { body: { meaning_fr: "sens" } },
  "POST /api/v1/auth/second-factor/verify": {
    body: { ticket: "t".repeat(43), method: "totp", code: "123456" },
  },
  "POST /api/v1/auth/second-factor/setup/confirm": { body: { ticket: "t".repeat(43), code: "123456" } },
  "POST /api/v1/user/me/two-factor/totp/enable": { body: { code: "123456" } },
  "POST /api/v1/habit/listening": {
    body: {
      items: [
        { lesson_id: "0190a0a0-0000-7000-8000-00000000dead", minute: new Date().toISOString(), seconds: 30 },
      ],
    },
  },
};

let t: TestContext;
const users = new Map<string, Caller>();
const staffRoles = new Map<string, { with: Caller; without: Caller }>();
/** What the customer owns, by owner policy resource: the id the "other customer" must not reach. */
const owned: Record<string, string> = {};

async function callerOf(role: string | undefined): Promise<Caller> {
  const user = await t.createUser(role ? { role } : {});
  const principal = await t.app.deps.services.users.loadPrincipal(user.id);
  return { id: user.id, token: user.token, principal };
}

/** Two staff members per permission: one with only it, one with every permission but it. */
async function staffFor(slug: PermissionSlug) {
  let pair = staffRoles.get(slug);
  if (!pair) {
    const { roles } = t.app.deps.services;
    const tag = slug.replace(/[^a-z]/gi, "_").toUpperCase();
    await roles.createRole({ title: `WITH_${tag}`, permissions: [slug] }, EVERY_POWER);
    await roles.createRole(
      { title: `WITHOUT_${tag}`, permissions: ALL_PERMISSIONS.filter((p) => p !== slug) },
      EVERY_POWER,
    );
    pair = { with: await callerOf(`WITH_${tag}`), without: await callerOf(`WITHOUT_${tag}`) };
    staffRoles.set(slug, pair);
  }
  return pair;
}

const audienceOf = (route: RouteAccess): Audience | undefined => ROUTE_AUDIENCES[route.operationId];

function slugOf(audience: Audience | undefined): PermissionSlug {
  if (typeof audience === "object") return audience.staff ?? "dashboard.admin";
  if (audience === undefined || audience === "public" || audience === "signed-in") return "dashboard.admin";
  return audience;
}

/** The audience in the declared rules' words (for comparing them, and the refusals' bodies). */
function ruleKindOf(audience: Audience): AccessRule["kind"] {
  if (audience === "public") return "public";
  if (audience === "signed-in") return "signedIn";
  return typeof audience === "object" ? "owner" : "permission";
}

async function callers(audience: Audience | undefined): Promise<Record<CallerName, Caller>> {
  const staff = await staffFor(slugOf(audience));
  const get = (name: string) => users.get(name) as Caller;
  return {
    anonymous: { id: null, principal: null },
    customer: get("customer"),
    "other customer": get("other customer"),
    "premium customer": get("premium customer"),
    "staff without": staff.without,
    "staff with": staff.with,
    admin: get("admin"),
  };
}

const schemaOf = (schema: FastifySchema, part: "params" | "querystring" | "body"): Zod | undefined => {
  const s = schema[part];
  return isZod(s) ? s : undefined;
};

/** The valid input of a route, or why none could be made (then an EXAMPLES entry is missing). */
function validInput(route: RouteAccess): Input | string {
  const key = `${route.method} ${route.url}`;
  const example = EXAMPLES[key] ?? {};
  const params: Record<string, string> = {};
  for (const name of route.url.match(/:\w+/g) ?? []) {
    const value = PARAM_EXAMPLES[name.slice(1)];
    if (!value) return `${key}: no example for the path parameter ${name} (add it to PARAM_EXAMPLES)`;
    params[name.slice(1)] = value;
  }
  const input: Input = { params, query: {} };
  const query = schemaOf(route.schema, "querystring");
  if (query) {
    input.query = asText(sampleValid(jsonSchemaOf(query)));
    if (!query.safeParse(input.query).success) return `${key}: no valid query string (add one to EXAMPLES)`;
  }
  const body = schemaOf(route.schema, "body");
  if (body) {
    const sample = sampleValid(jsonSchemaOf(body));
    input.body = example.body ? { ...(sample as object), ...example.body } : sample;
    const checked = body.safeParse(input.body);
    if (!checked.success)
      return `${key}: no valid body (add one to EXAMPLES): ${JSON.stringify(checked.error.issues)}`;
  }
  const audience = audienceOf(route);
  if (typeof audience === "object") {
    const id = owned[audience.owner];
    if (!id) return `${key}: no object of the customer for the owner audience "${audience.owner}"`;
    const reads =
      route.access.kind === "owner"
        ? route.access.policy.reads
        : route.url.includes(":id")
          ? "params"
          : "query";
    if (reads === "params") input.params.id = id;
    if (reads === "query") input.query.user_id = id;
    if (reads === "body") input.body = { ...(input.body as object), id };
  }
  return input;
}

/** The same input with one part broken: the body, else the query, else a path parameter. */
function invalidInput(route: RouteAccess, valid: Input): Input | undefined {
  const body = schemaOf(route.schema, "body");
  const keep = typeof audienceOf(route) === "object" ? ["id", "user_id"] : [];
  if (body) {
    const broken = sampleInvalid(body, valid.body as Record<string, unknown>, { keep });
    if (broken) return { ...valid, body: broken };
  }
  const query = schemaOf(route.schema, "querystring");
  if (query) {
    const broken = sampleInvalid(query, valid.query, { text: true, keep });
    if (broken) return { ...valid, query: asText(broken) };
  }
  const params = schemaOf(route.schema, "params");
  if (params) {
    const broken = sampleInvalid(params, valid.params, { text: true });
    if (broken) return { ...valid, params: asText(broken) };
  }
  return undefined;
}

function urlOf(route: RouteAccess, input: Input): string {
  const path = route.url.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(input.params[name] ?? ""),
  );
  const qs = new URLSearchParams(input.query).toString();
  return qs ? `${path}?${qs}` : path;
}

/** The refusals an owner audience may answer: "not yours" (403) or "does not exist" (404). */
const ownerRefusals = (resource: string) => [
  accessErrors.notOwner({ resource, denied: 403 }),
  accessErrors.notOwner({ resource }),
];

/**
 * The answers the audience allows this caller when it refuses them (any one of them), or null
 * when it lets them through. The owner of every object the inputs name is "customer"; an input
 * whose object id is malformed is left to validation (the route's policy steps aside).
 */
function refusals(route: RouteAccess, name: CallerName, caller: Caller, input: Input): AppError[] | null {
  const audience = audienceOf(route) as Audience;
  if (audience === "public") return null;
  if (!caller.principal) return [accessErrors.anonymous()];
  if (audience === "signed-in") return null;
  if (typeof audience === "string")
    return caller.principal.permissions.has(audience) ? null : [accessErrors.missingPermission(audience)];
  if (audience.staff && caller.principal.permissions.has(audience.staff)) return null;
  if (name === "customer") return null;
  if (route.access.kind === "owner" && route.access.policy.input(input as never) === undefined) return null;
  return ownerRefusals(audience.owner);
}

const bodyOf = (e: AppError) => ({ statusCode: e.statusCode, code: e.code, message: e.message });

/** Whether an answer is an access rule's refusal (any rule's: a route stricter than its audience is caught). */
function isAccessRefusal(route: RouteAccess, body: { statusCode: number; code: string; message: string }) {
  if (JSON.stringify(body) === JSON.stringify(bodyOf(accessErrors.anonymous()))) return true;
  if (body.statusCode === 403) return /^(Missing permission: |Not your )/.test(body.message);
  const audience = audienceOf(route);
  const resources = [
    typeof audience === "object" ? audience.owner : null,
    route.access.kind === "owner" ? route.access.policy.resource : null,
  ].filter((r): r is string => r !== null);
  return resources.some(
    (r) => JSON.stringify(bodyOf(accessErrors.notOwner({ resource: r }))) === JSON.stringify(body),
  );
}

beforeAll(async () => {
  t = await buildTestApp();
  const admin = await t.adminToken();
  const adminId = (await t.request({ method: "GET", url: "/api/v1/user/me", token: admin })).json().data.data
    .id;
  users.set("admin", {
    id: adminId,
    token: admin,
    principal: await t.app.deps.services.users.loadPrincipal(adminId),
  });
  for (const name of ["customer", "other customer", "premium customer"])
    users.set(name, await callerOf(undefined));
  const customer = users.get("customer") as Caller;
  const premium = users.get("premium customer") as Caller;
  await makePremium(t, premium.id as string);

  // what the customer owns: a booking, a customer plan, a profile; ?user_id= names them
  const event = await t.request({
    method: "POST",
    url: "/api/v1/events",
    token: admin,
    payload: {
      title_fr: "Club",
      title_en: "Club",
      kind: "online",
      online_url: "https://meet.example.com/room",
      starts_at: new Date(Date.now() + 7 * 86_400_000).toISOString(),
      ends_at: new Date(Date.now() + 7 * 86_400_000 + 3_600_000).toISOString(),
      capacity: 5,
    },
  });
  expect(event.statusCode, event.body).toBe(201);
  const booking = await t.request({
    method: "POST",
    url: "/api/v1/registrations/booking",
    token: customer.token,
    payload: { event_id: event.json().data.event.id, places: 1 },
  });
  expect(booking.statusCode, booking.body).toBe(201);
  owned.registration = booking.json().data.registration.id;
  const [plan] = await t.database.db
    .insert(plans)
    .values({ name: "Matrix", nameFr: "Matrix", amount: 500 })
    .returning();
  const [customerPlan] = await t.database.db
    .insert(customerPlans)
    .values({
      userId: customer.id as string,
      planId: plan?.id as string,
      status: "APPROVAL_PENDING",
      provider: "demo",
    })
    .returning();
  owned["customer plan"] = customerPlan?.id as string;
  const [payment] = await t.database.db
    .insert(payments)
    .values({
      customerPlanId: customerPlan?.id as string,
      userId: customer.id as string,
      amount: 500,
      currency: "EUR",
      provider: "demo",
      providerPaymentId: "MATRIX-1",
      paidAt: new Date(),
    })
    .returning();
  if (!payment || !plan) throw new Error("matrix payment not inserted");
  const receipt = await t.database.db.transaction((tx) =>
    t.app.deps.services.receipts.issue(payment, plan.id, tx),
  );
  owned.receipt = receipt.id;
  const [purchase] = await t.database.db
    .insert(purchases)
    .values({
      userId: customer.id as string,
      planId: plan.id,
      courseIds: [],
      provider: "demo",
      providerOrderId: "MATRIX-ORDER-1",
      listAmount: 500,
      amount: 500,
      currency: "EUR",
    })
    .returning();
  owned.purchase = purchase?.id as string;
  const [certificate] = await t.database.db
    .insert(certificates)
    .values({
      code: "MTRX-0001",
      userId: customer.id as string,
      learnerName: "Matrix",
      courseTitleFr: "Matrice",
      courseTitleEn: "Matrix",
    })
    .returning();
  owned.certificate = certificate?.id as string;
  owned.profile = customer.id as string;
  owned.user = customer.id as string;
  // a loaded CI machine: several sign-ins (argon2) and the database opening
}, 180_000);
afterAll(() => t.close());

describe("another customer's objects", () => {
  const as = (name: string) => (users.get(name) as Caller).token;

  it("cannot read or cancel a booking, nor see it in their list", async () => {
    const id = owned.registration;
    for (const [method, url] of [
      ["GET", `/api/v1/registrations/single/${id}`],
      ["POST", `/api/v1/registrations/cancel/${id}`],
    ] as const) {
      const res = await t.request({ method, url, token: as("other customer") });
      expect(res.statusCode, url).toBe(404);
    }
    const mine = await t.request({
      method: "GET",
      url: "/api/v1/registrations/mine",
      token: as("other customer"),
    });
    expect(mine.json().data.registrations).toEqual([]);
    const own = await t.request({
      method: "GET",
      url: `/api/v1/registrations/single/${id}`,
      token: as("customer"),
    });
    expect(own.json().data.registration.status).toBe("BOOKED");
  });

  it("cannot read or mark another's notifications", async () => {
    const list = await t.request({ method: "GET", url: "/api/v1/notifications", token: as("customer") });
    const [notification] = list.json().data.notifications as { id: string; read_at: string | null }[];
    expect(notification?.read_at).toBeNull();
    const read = await t.request({
      method: "POST",
      url: `/api/v1/notifications/${notification?.id}/read`,
      token: as("other customer"),
    });
    expect(read.statusCode).toBe(404);
    const theirs = await t.request({
      method: "GET",
      url: "/api/v1/notifications",
      token: as("other customer"),
    });
    expect(theirs.json().data.notifications).toEqual([]);
    const again = await t.request({ method: "GET", url: "/api/v1/notifications", token: as("customer") });
    expect(again.json().data.notifications[0].read_at).toBeNull();
  });

  it("cannot reach another's plans and payments, by ?user_id= or by id", async () => {
    const user = owned.user;
    for (const url of [
      `/api/v1/customer-plan/payments?user_id=${user}`,
      `/api/v1/customer-plan/valid-latest?user_id=${user}`,
      `/api/v1/customer-plan/has-valid-pro-plan?user_id=${user}`,
      `/api/v1/customer-plan/update-status/${owned["customer plan"]}`,
    ]) {
      const res = await t.request({ method: "GET", url, token: as("other customer") });
      expect(res.statusCode, url).toBe(404);
    }
    const cancel = await t.request({
      method: "POST",
      url: `/api/v1/customer-plan/cancel/${owned["customer plan"]}`,
      token: as("premium customer"),
    });
    expect(cancel.statusCode).toBe(404);
    const byBody = await t.request({
      method: "POST",
      url: "/api/v1/customer-plan/update-last-payment",
      token: as("other customer"),
      payload: { id: owned["customer plan"] },
    });
    expect(byBody.statusCode).toBe(404);
  });

  it("cannot change another's profile", async () => {
    const res = await t.request({
      method: "PUT",
      url: `/api/v1/user/profile/${owned.profile}`,
      token: as("other customer"),
      payload: { full_name: "Taken over" },
    });
    expect(res.statusCode).toBe(403);
    const me = await t.request({ method: "GET", url: "/api/v1/user/me", token: as("customer") });
    expect(me.json().data.data.full_name).not.toBe("Taken over");
  });
});

describe("router errors", () => {
  it("answers a path parameter longer than any id with 400 in the error envelope", async () => {
    const res = await t.request({ method: "GET", url: `/api/v1/courses/single/${"x".repeat(300)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, code: "BAD_REQUEST", message: "Path parameter too long" });
  });
});

describe("access matrix", () => {
  it("walks every route of the live table", () => {
    expect(t.app.routeAccess.length).toBeGreaterThan(100);
    expect(new Set(t.app.routeAccess.map((r) => r.access.kind))).toEqual(
      new Set(["public", "signedIn", "permission", "owner"]),
    );
  });

  it("has a line in the audience table for every route, and no line for a route that does not exist", () => {
    const live = new Set(t.app.routeAccess.map((r) => r.operationId));
    expect(
      t.app.routeAccess.filter((r) => !audienceOf(r)).map((r) => `${r.operationId} (${r.method} ${r.url})`),
    ).toEqual([]);
    expect(Object.keys(ROUTE_AUDIENCES).filter((id) => !live.has(id))).toEqual([]);
  });

  it("declares on each route the rule the audience table names", () => {
    const disagreements = t.app.routeAccess.flatMap((route) => {
      const audience = audienceOf(route);
      if (!audience) return [];
      const rule = route.access;
      const same =
        ruleKindOf(audience) === rule.kind &&
        (rule.kind !== "permission" || rule.slug === audience) &&
        (rule.kind !== "owner" ||
          (typeof audience === "object" &&
            rule.policy.resource === audience.owner &&
            rule.policy.staff === audience.staff));
      return same
        ? []
        : [`${route.operationId}: declares ${rule.kind}, the table says ${JSON.stringify(audience)}`];
    });
    expect(disagreements).toEqual([]);
  });

  it("has a valid input for every route", () => {
    const problems = t.app.routeAccess.map(validInput).filter((r): r is string => typeof r === "string");
    expect(problems).toEqual([]);
  });

  it("answers each caller as the audience table says, whatever the input", { timeout: 300_000 }, async () => {
    const failures: string[] = [];
    let calls = 0;
    // logging out ends the caller's session: last
    const routes = [...t.app.routeAccess].sort(
      (a, b) => Number(a.url.endsWith("/logout")) - Number(b.url.endsWith("/logout")),
    );
    for (const route of routes) {
      const valid = validInput(route);
      if (typeof valid === "string") continue;
      const invalid = invalidInput(route, valid);
      const audience = audienceOf(route);
      if (!audience) continue;
      const who = await callers(audience);
      for (const name of CALLERS) {
        const caller = who[name];
        for (const [label, input] of [
          ["valid", valid],
          ["invalid", invalid],
        ] as const) {
          if (!input) continue;
          calls += 1;
          const res = await t.request({
            method: route.method as "GET",
            url: urlOf(route, input),
            token: caller.token,
            ...(input.body !== undefined ? { payload: input.body as object } : {}),
          });
          const where = `${route.method} ${route.url} as ${name} (${label} input): ${res.statusCode} ${res.body.slice(0, 200)}`;
          const expected = refusals(route, name, caller, input);
          if (res.statusCode >= 500) failures.push(`${where}: server error`);
          else if (expected) {
            const got = JSON.stringify(res.json());
            if (!expected.some((e) => JSON.stringify(bodyOf(e)) === got))
              failures.push(
                `${where}: expected ${expected.map((e) => `${e.statusCode} ${e.message}`).join(" or ")}`,
              );
          } else if (label === "invalid" && ![400, 422].includes(res.statusCode)) {
            failures.push(`${where}: expected 400/422 (validation) once let in`);
          } else if ([401, 403, 404].includes(res.statusCode) && isAccessRefusal(route, res.json())) {
            failures.push(`${where}: refused, should be let in`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    console.log(`access matrix: ${calls} calls`);
  });
});
