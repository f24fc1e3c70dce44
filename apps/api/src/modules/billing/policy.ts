import { PERMISSIONS } from "@parlons/contract";
import type { Principal } from "../users/service";

/** A learner acts on their own customer plans; staff who manage customer plans on anyone's. */
export function canActOnCustomerPlan(principal: Principal, customerPlan: { userId: string }): boolean {
  return principal.id === customerPlan.userId || principal.permissions.has(PERMISSIONS.customerPlansManage);
}

/** Whose customer plans a request reads: the caller's, or (staff only) the one named in ?user_id. */
export function canReadCustomerPlansOf(principal: Principal, userId: string): boolean {
  return principal.id === userId || principal.permissions.has(PERMISSIONS.customerPlansManage);
}
