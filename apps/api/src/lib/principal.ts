import type { UserStatus } from "@parlons/contract";

/**
 * Who is calling: the signed-in user, their status, roles and the permissions those grant. Built
 * by the users module (`users.loadPrincipal`), read by the access rules of every route.
 */
export interface Principal {
  id: string;
  email: string;
  status: UserStatus;
  role: string;
  roles: string[];
  permissions: Set<string>;
}
