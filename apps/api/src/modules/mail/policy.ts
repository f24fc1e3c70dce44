import { PERMISSIONS } from "@parlons/contract";
import type { Principal } from "../users/service";

/** Templates, audiences and campaigns are staff matters: mail.manage covers all of them. */
export function canManageMail(principal: Principal | null): boolean {
  return Boolean(principal?.permissions.has(PERMISSIONS.mailManage));
}
