import { ALL_PERMISSIONS, type Grantor, ROLE_ADMIN } from "@parlons/contract";
import type { Principal } from "../../src/modules/users/service";

/** A principal for policy tests: an id and a list of permission slugs. */
export const principal = (id: string, permissions: string[] = []): Principal => ({
  id,
  email: `${id}@test.local`,
  status: "ACTIVE",
  role: "X",
  roles: ["X"],
  permissions: new Set(permissions),
});

/** The parts of a request an owner policy reads. */
export const requestOf = (parts: { params?: unknown; query?: unknown; body?: unknown }) => ({
  params: parts.params ?? {},
  query: parts.query ?? {},
  body: parts.body,
});

/** A grantor above every ceiling (an ADMIN holding every permission): tests that set up roles directly. */
export const EVERY_POWER: Grantor = { roles: [ROLE_ADMIN], permissions: new Set(ALL_PERMISSIONS) };
