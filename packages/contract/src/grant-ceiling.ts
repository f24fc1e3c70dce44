import { CUSTOMER_PERMISSIONS, ROLE_ADMIN } from "./permissions";

/**
 * The grant ceiling: staff grant only what they hold, and act only on accounts that hold nothing
 * more than they do. The API enforces it (apps/api/src/modules/roles/policy.ts); the web hides
 * what it would refuse. A signed-in principal (or the current user's roles and permissions) is a grantor.
 */
export interface Grantor {
  readonly roles: readonly string[];
  readonly permissions: ReadonlySet<string>;
}

/** What is granted or acted on: a role (its title and permissions), or an account (all its roles together). */
export interface Power {
  readonly roles: readonly string[];
  readonly permissions: Iterable<string>;
}

export type CeilingRefusal = { reason: "admin-only" } | { reason: "missing"; permissions: string[] };

/**
 * The learner abilities that every visitor gets by signing up: granting them, or acting on an
 * account that holds only them, gives nobody more than they could take themselves.
 */
const EVERYONE_HOLDS: ReadonlySet<string> = new Set(CUSTOMER_PERMISSIONS);

const holdsAdmin = (roles: readonly string[]) => roles.some((title) => title.toUpperCase() === ROLE_ADMIN);

/**
 * Why the grantor may not grant this power or act on an account holding it, or null when they
 * may: only an ADMIN creates, promotes, demotes, changes or disables an ADMIN; nobody grants a
 * permission they lack, nor touches an account holding one.
 */
export function ceilingRefusal(grantor: Grantor, power: Power): CeilingRefusal | null {
  if (holdsAdmin(power.roles) && !holdsAdmin(grantor.roles)) return { reason: "admin-only" };
  const missing = [...new Set(power.permissions)]
    .filter((slug) => !grantor.permissions.has(slug) && !EVERYONE_HOLDS.has(slug))
    .sort();
  return missing.length > 0 ? { reason: "missing", permissions: missing } : null;
}
