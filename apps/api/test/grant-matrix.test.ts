import {
  ALL_PERMISSIONS,
  ceilingRefusal,
  type Grantor,
  type PermissionSlug,
  ROLE_ADMIN,
  ROLE_CUSTOMER,
} from "@parlons/contract";
import { eq, getTableName, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, rolePermissions, roles as roleTable, sessions, userRoles, users } from "../src/db/schema";
import { accessErrors, type RouteAccess } from "../src/plugins/access";
import { buildTestApp, type TestContext } from "./helpers/build";
import { EVERY_POWER } from "./helpers/principal";

/**
 * The grant ceiling (issue 25) walked like the access matrix: every route that grants or removes
 * power × every role of the database as the caller × every role (or account of that role) it
 * would grant or act on. A caller whose route permission is missing gets the access rule's 403;
 * one above the ceiling (`ceilingRefusal`) gets 403 ABOVE_YOUR_PERMISSIONS and nothing changes in
 * the database (users, their roles, roles, their permissions, sessions, audit log); anyone else
 * gets 2xx and the change is there. A new users or roles route that writes must be walked here
 * or named in NOT_GRANTING, with why.
 */

/** Roles of the test: the built-in ones and staff roles around the ceiling. */
const STAFF_ROLES: Record<string, string[]> = {
  // every permission, without being an ADMIN
  ALMIGHTY: ALL_PERMISSIONS,
  // users and roles, but neither audit nor anything else
  PEOPLE_LEAD: ["users.read", "users.manage", "roles.manage"],
  USER_MANAGER: ["users.read", "users.manage"],
  ROLE_MAKER: ["roles.manage"],
  SUPPORT: ["users.read", "users.manage", "learn", "plans.subscribe", "events.book"],
};
const ROLES = [ROLE_ADMIN, ROLE_CUSTOMER, ...Object.keys(STAFF_ROLES)];

/** Permission sets a new role may be asked for (each role's, and one beyond every staff role). */
const PERMISSION_SETS: Record<string, string[]> = {
  ...STAFF_ROLES,
  LEARNER: ["learn", "plans.subscribe", "events.book"],
  AUDITOR: ["audit.read"],
  NONE: [],
};

/** Writes of the users and roles modules that grant or remove no power, with why. */
const NOT_GRANTING: Record<string, string> = {
  listUsers: "a read (POST for its filters)",
  listCustomers: "a read (POST for its filters)",
};

interface Caller {
  role: string;
  id: string;
  token: string;
  grantor: Grantor;
}

interface Case {
  /** What the ceiling judges: the role or permissions granted, the account acted on, or both. */
  judged: Array<{ roles: string[]; permissions: string[] }>;
  request: { method: "POST" | "PUT" | "DELETE"; url: string; payload?: object };
  /** Whether the change is in the database (after a 2xx). */
  done(): Promise<boolean>;
  /** Run after the case, whatever the answer: keeps the role list under its limit. */
  cleanup?(): Promise<void>;
  label: string;
}

let t: TestContext;
const callers = new Map<string, Caller>();
const permissionsOf = (role: string): string[] =>
  role === ROLE_ADMIN
    ? ALL_PERMISSIONS
    : role === ROLE_CUSTOMER
      ? (PERMISSION_SETS.LEARNER ?? [])
      : (STAFF_ROLES[role] ?? []);
let serial = 0;
const unique = (what: string) => `${what}${++serial}`;

/** An account of this role nobody else touches (no password: it is only acted on). */
async function accountOf(role: string, status: "ACTIVE" | "PENDING" = "ACTIVE") {
  const row = await t.app.deps.services.users.createUser({
    email: `${unique("target")}@test.local`,
    passwordHash: null,
    status,
    role,
  });
  return row.id;
}

async function userState(id: string) {
  const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
  const held = await t.database.db.select().from(userRoles).where(eq(userRoles.userId, id));
  return { row, held };
}

/** What the ceiling guards, whole (each table's rows, hashed by the database): compared around every refusal. */
async function snapshot(): Promise<string> {
  const digest = (table: string) =>
    sql.raw(`(select md5(coalesce(string_agg(t::text, ',' order by t::text), '')) from ${table} t)`);
  const tables = [users, userRoles, roleTable, rolePermissions, sessions, auditLog].map(getTableName);
  const result = await t.database.db.execute(
    sql`select ${sql.join(
      tables.map((table) => digest(table)),
      sql`, `,
    )}`,
  );
  return JSON.stringify((result as { rows: unknown[] }).rows);
}

async function removeRole(title: string) {
  const role = await t.app.deps.services.roles.getByTitle(title);
  if (role) await t.app.deps.services.roles.deleteRole(role.id, EVERY_POWER);
}

const account = (role: string) => ({ roles: [role], permissions: permissionsOf(role) });

/** An account of each role created by staff (`/users/add` and its `/users/signup` twin). */
const creations = (url: string): Case[] =>
  ROLES.map((role) => {
    const email = `${unique("created")}@test.local`;
    return {
      label: `role ${role}`,
      judged: [account(role)],
      request: { method: "POST", url, payload: { email, password: "Created-pass1!", role } },
      done: async () => Boolean(await t.app.deps.services.users.findByEmail(email)),
    };
  });

/** One case per role: a request on a fresh account of that role, done when its row shows it. */
async function onAccounts(
  label: string,
  request: (id: string) => Case["request"],
  done: (row: typeof users.$inferSelect) => boolean,
  status: "ACTIVE" | "PENDING" = "ACTIVE",
): Promise<Case[]> {
  const cases: Case[] = [];
  for (const role of ROLES) {
    const id = await accountOf(role, status);
    cases.push({
      label: `${label} ${role}`,
      judged: [account(role)],
      request: request(id),
      done: async () => {
        const { row } = await userState(id);
        return row !== undefined && done(row);
      },
    });
  }
  return cases;
}

/** The cases of one route, by operationId: what it grants or acts on, and how to see it done. */
const CASES: Record<string, () => Promise<Case[]>> = {
  createUser: async () => creations("/api/v1/users/add"),
  createCustomer: async () => creations("/api/v1/users/signup"),
  approveUser: () =>
    onAccounts(
      "a pending",
      (id) => ({ method: "POST", url: `/api/v1/users/user-approve?userId=${id}` }),
      (row) => row.status === "ACTIVE",
      "PENDING",
    ),
  updateUserStatus: () =>
    onAccounts(
      "disable a",
      (id) => ({ method: "POST", url: `/api/v1/users/status/update?userId=${id}&status=DISABLED` }),
      (row) => row.status === "DISABLED",
    ),
  updateProfile: () =>
    onAccounts(
      "the profile of a",
      (id) => ({ method: "PUT", url: `/api/v1/user/profile/${id}`, payload: { full_name: "Edited" } }),
      (row) => row.fullName === "Edited",
    ),
  async updateUser() {
    const cases: Case[] = [];
    for (const role of ROLES) {
      const id = await accountOf(role);
      cases.push({
        label: `rename a ${role}`,
        judged: [account(role)],
        request: { method: "POST", url: `/api/v1/users/update/${id}`, payload: { full_name: "Renamed" } },
        done: async () => (await userState(id)).row?.fullName === "Renamed",
      });
      for (const to of ROLES) {
        if (to === role) continue;
        const target = await accountOf(role);
        const [wanted] = await t.app.deps.services.roles.listRoles({ titles: [to] });
        cases.push({
          label: `a ${role} made ${to}`,
          judged: [account(role), account(to)],
          request: { method: "POST", url: `/api/v1/users/update/${target}`, payload: { role: to } },
          done: async () => (await userState(target)).held.map((h) => h.roleId).join() === wanted?.id,
        });
      }
    }
    return cases;
  },
  async createRole() {
    return Object.entries(PERMISSION_SETS).map(([name, permissions]) => {
      const title = unique(`NEW_${name}_`);
      return {
        label: `with the permissions of ${name}`,
        judged: [{ roles: [title], permissions }],
        request: { method: "POST", url: "/api/v1/api/role", payload: { title, permissions } },
        done: async () => Boolean(await t.app.deps.services.roles.getByTitle(title)),
        cleanup: () => removeRole(title),
      };
    });
  },
  async deleteRole() {
    const cases: Case[] = [];
    for (const [name, permissions] of Object.entries(PERMISSION_SETS)) {
      const role = await t.app.deps.services.roles.createRole(
        { title: unique(`OLD_${name}_`), permissions },
        EVERY_POWER,
      );
      cases.push({
        label: `an unheld role with the permissions of ${name}`,
        judged: [{ roles: [role.title], permissions }],
        request: { method: "DELETE", url: `/api/v1/api/${role.id}` },
        done: async () => !(await t.app.deps.services.roles.getByTitle(role.title)),
        cleanup: () => removeRole(role.title),
      });
    }
    return cases;
  },
};

const tagsOf = (route: RouteAccess) => (route.schema as { tags?: string[] }).tags ?? [];

beforeAll(async () => {
  t = await buildTestApp();
  for (const [title, permissions] of Object.entries(STAFF_ROLES))
    await t.app.deps.services.roles.createRole({ title, permissions }, EVERY_POWER);
  for (const role of ROLES) {
    const user = await t.createUser({ role });
    const principal = await t.app.deps.services.users.loadPrincipal(user.id);
    if (!principal) throw new Error(`no principal for ${role}`);
    callers.set(role, { role, id: user.id, token: user.token, grantor: principal });
  }
}, 120_000);
afterAll(() => t.close());

describe("grant matrix", () => {
  it("walks every route of the users and roles modules that writes", () => {
    const writes = t.app.routeAccess.filter(
      (r) => r.method !== "GET" && tagsOf(r).some((tag) => tag === "users" || tag === "roles"),
    );
    const unwalked = writes.map((r) => r.operationId).filter((id) => !(id in CASES) && !(id in NOT_GRANTING));
    expect(unwalked).toEqual([]);
    const unknown = Object.keys(CASES).filter((id) => !t.app.routeAccess.some((r) => r.operationId === id));
    expect(unknown).toEqual([]);
  });

  it("answers every role as the ceiling says, and a refusal changes nothing", {
    timeout: 300_000,
  }, async () => {
    const failures: string[] = [];
    const counts = { allowed: 0, ceiling: 0, permission: 0 };
    for (const [operationId, build] of Object.entries(CASES)) {
      const route = t.app.routeAccess.find((r) => r.operationId === operationId) as RouteAccess;
      const needed =
        route.access.kind === "permission"
          ? route.access.slug
          : route.access.kind === "owner"
            ? route.access.policy.staff
            : undefined;
      for (const caller of callers.values()) {
        for (const c of await build()) {
          const where = `${operationId} (${c.label}) as ${caller.role}`;
          const lacksRoute = needed !== undefined && !caller.grantor.permissions.has(needed);
          const refusal = c.judged.map((p) => ceilingRefusal(caller.grantor, p)).find((r) => r !== null);
          const before = lacksRoute || refusal ? await snapshot() : "";
          const res = await t.request({ ...c.request, token: caller.token });
          const body = `${res.statusCode} ${res.body.slice(0, 200)}`;
          if (lacksRoute) {
            counts.permission += 1;
            const expected =
              route.access.kind === "owner"
                ? accessErrors.notOwner(route.access.policy)
                : accessErrors.missingPermission(needed as PermissionSlug);
            if (res.statusCode !== 403 || res.json().message !== expected.message)
              failures.push(`${where}: ${body}, expected the access rule's 403`);
            if ((await snapshot()) !== before) failures.push(`${where}: refused, yet the database changed`);
          } else if (refusal) {
            counts.ceiling += 1;
            if (res.statusCode !== 403 || res.json().code !== "ABOVE_YOUR_PERMISSIONS")
              failures.push(`${where}: ${body}, expected 403 ABOVE_YOUR_PERMISSIONS`);
            if ((await snapshot()) !== before) failures.push(`${where}: refused, yet the database changed`);
          } else {
            counts.allowed += 1;
            if (res.statusCode >= 300) failures.push(`${where}: ${body}, expected to be allowed`);
            else if (!(await c.done())) failures.push(`${where}: ${body}, but the change is not there`);
          }
          await c.cleanup?.();
        }
      }
    }
    expect(failures).toEqual([]);
    // each kind of answer is met (a matrix that only allows proves nothing)
    expect(counts.allowed).toBeGreaterThan(50);
    expect(counts.ceiling).toBeGreaterThan(50);
    expect(counts.permission).toBeGreaterThan(10);
    console.log(`grant matrix: ${JSON.stringify(counts)}`);
  });
});
