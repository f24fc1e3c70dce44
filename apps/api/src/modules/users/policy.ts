import { PERMISSIONS } from "@parlons/contract";
import type { Principal } from "./service";

/** A user edits their own profile; staff who manage users edit anyone's. */
export function canEditProfile(principal: Principal, targetUserId: string): boolean {
  return principal.id === targetUserId || principal.permissions.has(PERMISSIONS.usersManage);
}
