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
