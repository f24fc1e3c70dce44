import { PERMISSIONS } from "@parlons/contract";
import type { Principal } from "../users/service";

export function isEventStaff(principal: Principal | null): boolean {
  return Boolean(principal?.permissions.has(PERMISSIONS.eventsManage));
}

/** Inactive events exist for staff only; everyone else gets a 404. */
export function canSeeEvent(principal: Principal | null, event: { active: boolean }): boolean {
  return event.active || isEventStaff(principal);
}

export function canBook(principal: Principal | null): boolean {
  return Boolean(principal?.permissions.has(PERMISSIONS.eventsBook));
}

/** A registration is read or cancelled by its owner or by staff; to anyone else it does not exist. */
export function canSeeRegistration(principal: Principal | null, registration: { userId: string }): boolean {
  return Boolean(principal && (principal.id === registration.userId || isEventStaff(principal)));
}
