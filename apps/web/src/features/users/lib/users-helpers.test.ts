import type { Role } from "@parlons/contract";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import en from "@/locales/en/users.json";
import es from "@/locales/es/users.json";
import fr from "@/locales/fr/users.json";
import {
  filtersFromParams,
  filtersToParams,
  grantorOf,
  hasActiveFilters,
  isValidRoleTitle,
  listBody,
  mayGrantPermission,
  normalizeRoleTitle,
  permissionKey,
  roleChoices,
  roleName,
  roleOptions,
  statusColor,
  type UserEditValues,
  updateBody,
  userActions,
  withinCeiling,
} from "./users-helpers";

describe("list filters in the URL", () => {
  it("reads defaults from an empty query", () => {
    expect(filtersFromParams(new URLSearchParams())).toEqual({
      page: 1,
      pageSize: 20,
      search: "",
      status: undefined,
      role: undefined,
    });
  });

  it("reads valid values and drops invalid ones", () => {
    expect(
      filtersFromParams(new URLSearchParams("page=3&pageSize=50&q=anne&status=PENDING&role=editor")),
    ).toEqual({ page: 3, pageSize: 50, search: "anne", status: "PENDING", role: "EDITOR" });
    expect(filtersFromParams(new URLSearchParams("page=-2&pageSize=7&status=GONE&role=a%20b"))).toEqual({
      page: 1,
      pageSize: 20,
      search: "",
      status: undefined,
      role: undefined,
    });
    expect(filtersFromParams(new URLSearchParams("page=1.5")).page).toBe(1);
  });

  it("round-trips and leaves defaults out", () => {
    const filters = { page: 2, pageSize: 10, search: " bob ", status: "DISABLED" as const, role: "ADMIN" };
    const params = filtersToParams(filters);
    expect(params.toString()).toBe("q=bob&status=DISABLED&role=ADMIN&page=2&pageSize=10");
    expect(filtersFromParams(params)).toEqual({ ...filters, search: "bob" });
    expect(
      filtersToParams({ page: 1, pageSize: 20, search: "  ", status: undefined, role: undefined }).toString(),
    ).toBe("");
  });
});

describe("listBody", () => {
  it("sends only the filters in use", () => {
    expect(listBody({ page: 1, pageSize: 20, search: "  ", status: undefined, role: undefined })).toEqual({
      page: 1,
      pageSize: 20,
    });
    expect(listBody({ page: 2, pageSize: 10, search: " zoé ", status: "ACTIVE", role: "CUSTOMER" })).toEqual({
      page: 2,
      pageSize: 10,
      search: "zoé",
      status: "ACTIVE",
      role: "CUSTOMER",
    });
  });

  it("knows when filters are active", () => {
    const none = { page: 4, pageSize: 20, search: " ", status: undefined, role: undefined };
    expect(hasActiveFilters(none)).toBe(false);
    expect(hasActiveFilters({ ...none, role: "ADMIN" })).toBe(true);
    expect(hasActiveFilters({ ...none, search: "x" })).toBe(true);
  });
});

describe("userActions", () => {
  it("approves pending accounts and disables others", () => {
    expect(userActions({ id: "a", status: "PENDING" }, "me")).toEqual(["approve", "disable", "edit"]);
    expect(userActions({ id: "a", status: "ACTIVE" }, "me")).toEqual(["disable", "edit"]);
    expect(userActions({ id: "a", status: "DISABLED" }, "me")).toEqual(["enable", "edit"]);
  });

  it("keeps only edit (which says why) for an account above the staff member's ceiling", () => {
    expect(userActions({ id: "a", status: "PENDING" }, "me", false)).toEqual(["edit"]);
    expect(userActions({ id: "a", status: "ACTIVE" }, "me", false)).toEqual(["edit"]);
  });

  it("never offers to disable one's own account", () => {
    expect(userActions({ id: "me", status: "ACTIVE" }, "me")).toEqual(["edit"]);
  });

  it("colours statuses", () => {
    expect(statusColor("ACTIVE")).toBe("green");
    expect(statusColor("PENDING")).toBe("gold");
    expect(statusColor("DISABLED")).toBe("red");
  });
});

describe("role titles", () => {
  it("normalizes and validates like the API", () => {
    expect(normalizeRoleTitle("  editor_fr ")).toBe("EDITOR_FR");
    expect(isValidRoleTitle("editor-2")).toBe(true);
    expect(isValidRoleTitle("A")).toBe(false);
    expect(isValidRoleTitle("with space")).toBe(false);
    expect(isValidRoleTitle("é")).toBe(false);
    expect(isValidRoleTitle("X".repeat(41))).toBe(false);
  });

  it("turns permission slugs into i18n keys", () => {
    expect(permissionKey("users.read")).toBe("users_read");
    expect(permissionKey("customer-plans.manage")).toBe("customer-plans_manage");
  });

  it("offers the listed roles, or the built-in ones, plus the current role", () => {
    expect(roleChoices(["EDITOR", "ADMIN"], ["ADMIN", "CUSTOMER"])).toEqual(["ADMIN", "EDITOR"]);
    expect(roleChoices(undefined, ["ADMIN", "CUSTOMER"], "TEACHER")).toEqual([
      "ADMIN",
      "CUSTOMER",
      "TEACHER",
    ]);
    expect(roleChoices([], ["ADMIN", "CUSTOMER"], "ADMIN")).toEqual(["ADMIN", "CUSTOMER"]);
  });

  it("names the built-in roles in the reader's language and staff's roles by their title", async () => {
    const names = {
      fr: ["Administrateur", "Apprenant"],
      en: ["Administrator", "Learner"],
      es: ["Administrador", "Estudiante"],
    };
    const i18n = i18next.createInstance();
    await i18n.init({
      showSupportNotice: false,
      resources: { fr: { users: fr }, en: { users: en }, es: { users: es } },
    });
    for (const [lang, [adminName, customerName]] of Object.entries(names)) {
      const t = i18n.getFixedT(lang);
      expect(roleName(t, "ADMIN")).toBe(adminName);
      expect(roleName(t, "CUSTOMER")).toBe(customerName);
      expect(roleName(t, "CONTENT_EDITOR")).toBe("CONTENT_EDITOR");
      expect(roleOptions(t, ["EDITOR", "CUSTOMER"], ["ADMIN", "CUSTOMER"])).toEqual([
        { value: "CUSTOMER", label: customerName },
        { value: "EDITOR", label: "EDITOR" },
      ]);
    }
  });
});

describe("the grant ceiling on the staff screens", () => {
  const role = (title: string, slugs: string[]): Role => ({
    id: title,
    title,
    description: null,
    builtIn: false,
    permissions: slugs.map((slug) => ({ slug })),
  });
  const roles = [
    role("ADMIN", ["users.manage", "audit.read"]),
    role("AUDITOR", ["audit.read"]),
    role("DESK", ["users.manage"]),
  ];
  const manager = grantorOf({
    roles: [role("DESK", ["users.manage", "users.read"])],
    permissions: ["users.manage", "users.read"],
  });
  const admin = grantorOf({ roles: [roles[0] as Role], permissions: ["users.manage", "audit.read"] });

  it("reads the signed-in user's roles and permissions", () => {
    expect(manager.roles).toEqual(["DESK"]);
    expect([...manager.permissions].sort()).toEqual(["users.manage", "users.read"]);
    expect(grantorOf(null)).toEqual({ roles: [], permissions: new Set() });
  });

  it("offers only the roles the API would let the staff member give", () => {
    const grantable = (title: string) => withinCeiling(manager, title, roles);
    expect(
      roleChoices(
        roles.map((r) => r.title),
        ["ADMIN", "CUSTOMER"],
        undefined,
        grantable,
      ),
    ).toEqual(["DESK"]);
    // roles known by title only (the caller may not list roles): ADMIN alone is held back
    expect(
      roleChoices(undefined, ["ADMIN", "CUSTOMER"], undefined, (t) => withinCeiling(manager, t, undefined)),
    ).toEqual(["CUSTOMER"]);
    // the current role stays shown, even one the editor may not give
    expect(roleChoices(["DESK"], ["ADMIN", "CUSTOMER"], "AUDITOR", grantable)).toEqual(["AUDITOR", "DESK"]);
    expect(
      roleChoices(
        roles.map((r) => r.title),
        [],
        undefined,
        (t) => withinCeiling(admin, t, roles),
      ),
    ).toEqual(["ADMIN", "AUDITOR", "DESK"]);
  });

  it("offers only the permissions the staff member holds, and the learner abilities", () => {
    expect(mayGrantPermission(manager, "users.read")).toBe(true);
    expect(mayGrantPermission(manager, "learn")).toBe(true);
    expect(mayGrantPermission(manager, "roles.manage")).toBe(false);
  });
});

describe("updateBody", () => {
  const before: UserEditValues = {
    full_name: "Anne",
    gender: null,
    speak: "FR",
    role: "CUSTOMER",
    status: "ACTIVE",
    plan_id: "p1",
  };

  it("sends only what changed", () => {
    expect(updateBody(before, { ...before }, { self: false, canEditPlan: true })).toEqual({});
    expect(
      updateBody(
        before,
        {
          ...before,
          full_name: " Anne B ",
          gender: "f",
          speak: "EN",
          role: "ADMIN",
          status: "DISABLED",
          plan_id: "p2",
        },
        { self: false, canEditPlan: true },
      ),
    ).toEqual({
      full_name: "Anne B",
      gender: "f",
      speak: "EN",
      role: "ADMIN",
      status: "DISABLED",
      plan_id: "p2",
    });
  });

  it("never sends one's own role or status, nor a plan the editor cannot see", () => {
    expect(
      updateBody(
        before,
        { ...before, role: "ADMIN", status: "DISABLED", plan_id: "p2", speak: "EN" },
        { self: true, canEditPlan: false },
      ),
    ).toEqual({ speak: "EN" });
  });

  it("ignores a blank name and can clear the gender", () => {
    expect(
      updateBody(
        { ...before, gender: "m" },
        { ...before, full_name: "  ", gender: null },
        { self: false, canEditPlan: true },
      ),
    ).toEqual({ gender: null });
  });
});
