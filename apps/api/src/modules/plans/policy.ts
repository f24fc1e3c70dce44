import { PERMISSIONS } from "@parlons/contract";
import type { Principal } from "../users/service";

/** Staff who manage plans see inactive plans too; everyone else only the active ones. */
export function canSeeInactivePlans(principal: Principal | null): boolean {
  return Boolean(principal?.permissions.has(PERMISSIONS.plansManage));
}
