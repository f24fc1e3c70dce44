import { PERMISSIONS } from "@parlons/contract";
import type { Principal } from "../users/service";

/** Configuration values are staff-only, read and write: they may hold what learners should not see. */
export function canManageConfigs(principal: Principal | null): boolean {
  return Boolean(principal?.permissions.has(PERMISSIONS.configsManage));
}
