import { PERMISSIONS } from "@parlons/contract";
import type { Principal } from "../users/service";

/** Everyone reads the settings (they hold nothing secret); only staff with settings.manage change them. */
export function canManageSettings(principal: Principal | null): boolean {
  return Boolean(principal?.permissions.has(PERMISSIONS.settingsManage));
}
