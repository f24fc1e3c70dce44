import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestContext } from "../../../test/helpers/build";
import { EVERY_POWER } from "../../../test/helpers/principal";

/**
 * The defects found by probing (issue 25): staff with `users.manage` made, disabled and demoted
 * admins, and staff with `roles.manage` made a role with permissions they lack. Each is now 403
 * ABOVE_YOUR_PERMISSIONS and changes nothing.
 */
let t: TestContext;
let admin: string;
let manager: { id: string; token: string };
let roleMaker: { id: string; token: string };
let otherAdmin: { id: string; token: string };

beforeAll(async () => {
  t = await buildTestApp();
  admin = await t.adminToken();
  const { roles } = t.app.deps.services;
  await roles.createRole({ title: "USER_MANAGER", permissions: ["users.read", "users.manage"] }, EVERY_POWER);
  await roles.createRole({ title: "ROLE_MAKER", permissions: ["roles.manage", "users.read"] }, EVERY_POWER);
  manager = await t.createUser({ role: "USER_MANAGER" });
  roleMaker = await t.createUser({ role: "ROLE_MAKER" });
  otherAdmin = await t.createUser({ role: "ADMIN" });
}, 60_000);
afterAll(() => t.close());

function expectRefused(res: { statusCode: number; body: string; json(): unknown }) {
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toMatchObject({ statusCode: 403, code: "ABOVE_YOUR_PERMISSIONS" });
}

async function roleOf(id: string): Promise<{ role: string; status: string }> {
  const res = await t.request({ method: "GET", url: `/api/v1/users/${id}`, token: admin });
  return res.json().data.user;
}

describe("grant ceiling: the defects found by probing", () => {
  it("a users.manage role cannot create an ADMIN account", async () => {
    const res = await t.request({
      method: "POST",
      url: "/api/v1/users/add",
      token: manager.token,
      payload: { email: "sneaky.admin@test.local", password: "Sneaky-pass1!", role: "ADMIN" },
    });
    expectRefused(res);
    const list = await t.request({
      method: "POST",
      url: "/api/v1/users",
      token: admin,
      payload: { search: "sneaky.admin" },
    });
    expect(list.json().data.users).toEqual([]);
  });

  it("a users.manage role cannot disable an admin", async () => {
    const res = await t.request({
      method: "POST",
      url: `/api/v1/users/status/update?userId=${otherAdmin.id}&status=DISABLED`,
      token: manager.token,
    });
    expectRefused(res);
    expect((await roleOf(otherAdmin.id)).status).toBe("ACTIVE");
  });

  it("a users.manage role cannot demote an admin", async () => {
    const res = await t.request({
      method: "POST",
      url: `/api/v1/users/update/${otherAdmin.id}`,
      token: manager.token,
      payload: { role: "CUSTOMER" },
    });
    expectRefused(res);
    expect((await roleOf(otherAdmin.id)).role).toBe("ADMIN");
  });

  it("a roles.manage role cannot create a role with permissions it lacks", async () => {
    const res = await t.request({
      method: "POST",
      url: "/api/v1/api/role",
      token: roleMaker.token,
      payload: { title: "OVERLORD", permissions: ["roles.manage", "users.manage"] },
    });
    expectRefused(res);
    expect(res.json().message).toContain("users.manage");
    const list = await t.request({ method: "GET", url: "/api/v1/api/role", token: admin });
    expect(list.json().data.roles.map((r: { title: string }) => r.title)).not.toContain("OVERLORD");
  });

  it("still lets staff grant what they hold, and an admin do anything", async () => {
    const own = await t.request({
      method: "POST",
      url: "/api/v1/api/role",
      token: roleMaker.token,
      payload: { title: "READER_ONLY", permissions: ["users.read", "learn"] },
    });
    expect(own.statusCode, own.body).toBe(201);
    const customer = await t.request({
      method: "POST",
      url: "/api/v1/users/add",
      token: manager.token,
      payload: { email: "new.customer@test.local", password: "Customer-pass1!", role: "CUSTOMER" },
    });
    expect(customer.statusCode, customer.body).toBe(201);
    const byAdmin = await t.request({
      method: "POST",
      url: "/api/v1/users/add",
      token: admin,
      payload: { email: "second.admin@test.local", password: "Admin-pass2!", role: "ADMIN" },
    });
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);
  });
});
