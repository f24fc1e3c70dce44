import { ALL_PERMISSIONS, ceilingRefusal, type Grantor } from "@parlons/contract";
import { describe, expect, it } from "vitest";
import { AppError } from "../../lib/errors";
import { assertWithinCeiling } from "./policy";

const grantor = (roles: string[], permissions: string[]): Grantor => ({
  roles,
  permissions: new Set(permissions),
});
const admin = grantor(["ADMIN"], ALL_PERMISSIONS);
const manager = grantor(["USER_MANAGER"], ["users.read", "users.manage"]);
const everythingButAdmin = grantor(["ALMIGHTY"], ALL_PERMISSIONS);
const learner = { roles: ["CUSTOMER"], permissions: ["learn", "plans.subscribe", "events.book"] };

function refusalOf(run: () => void): AppError | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

describe("grant ceiling", () => {
  it("lets staff grant roles and permissions they hold, and act on accounts holding no more", () => {
    expect(ceilingRefusal(manager, { roles: ["READER"], permissions: ["users.read"] })).toBeNull();
    expect(
      ceilingRefusal(manager, { roles: ["PEER"], permissions: ["users.manage", "users.read"] }),
    ).toBeNull();
    expect(ceilingRefusal(manager, { roles: ["EMPTY"], permissions: [] })).toBeNull();
  });

  it("counts the learner abilities anyone gets by signing up as held by every grantor", () => {
    expect(ceilingRefusal(manager, learner)).toBeNull();
    expect(ceilingRefusal(grantor(["NOTHING"], []), learner)).toBeNull();
  });

  it("refuses a permission the grantor lacks, naming each one once, in order", () => {
    expect(
      ceilingRefusal(manager, {
        roles: ["SUPPORT"],
        permissions: ["users.read", "roles.manage", "audit.read", "roles.manage"],
      }),
    ).toEqual({ reason: "missing", permissions: ["audit.read", "roles.manage"] });
  });

  it("keeps every ADMIN to an ADMIN, even for a grantor holding every permission", () => {
    const adminAccount = { roles: ["CUSTOMER", "ADMIN"], permissions: ALL_PERMISSIONS };
    expect(ceilingRefusal(everythingButAdmin, adminAccount)).toEqual({ reason: "admin-only" });
    expect(ceilingRefusal(manager, { roles: ["admin"], permissions: [] })).toEqual({ reason: "admin-only" });
    expect(ceilingRefusal(admin, adminAccount)).toBeNull();
    expect(ceilingRefusal(grantor(["CUSTOMER", "ADMIN"], ALL_PERMISSIONS), adminAccount)).toBeNull();
    // holding every permission without the ADMIN role is enough for anything else
    expect(ceilingRefusal(everythingButAdmin, { roles: ["OTHER"], permissions: ALL_PERMISSIONS })).toBeNull();
  });

  it("answers 403 ABOVE_YOUR_PERMISSIONS with what was refused", () => {
    const grant = refusalOf(() =>
      assertWithinCeiling(manager, { roles: ["X"], permissions: ["roles.manage"] }, "grant"),
    );
    expect(grant).toMatchObject({
      statusCode: 403,
      code: "ABOVE_YOUR_PERMISSIONS",
      message: "You cannot grant permissions you do not hold: roles.manage",
    });
    const account = refusalOf(() =>
      assertWithinCeiling(manager, { roles: ["X"], permissions: ["audit.read"] }, "account"),
    );
    expect(account?.message).toBe("This account holds permissions you do not hold: audit.read");
    const adminOnly = refusalOf(() =>
      assertWithinCeiling(manager, { roles: ["ADMIN"], permissions: [] }, "account"),
    );
    expect(adminOnly).toMatchObject({ statusCode: 403, code: "ABOVE_YOUR_PERMISSIONS" });
    expect(adminOnly?.message).toMatch(/Only an administrator/);
    expect(refusalOf(() => assertWithinCeiling(admin, learner, "account"))).toBeNull();
  });
});
