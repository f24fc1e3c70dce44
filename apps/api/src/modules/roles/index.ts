import { announcing } from "../../lib/change-bus";
import { defineModule } from "../../lib/module";
import roleRoutes from "./routes";
import type { RoleService } from "./service";
import { createRoleService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    roles: RoleService;
  }
}

/** Roles and the permissions they hold. */
export default defineModule({
  name: "roles",
  needs: [],
  provides: ["roles"],
  announces: ["roles"],
  routesRead: ["audit"],
  build: ({ db, changes }) => ({
    roles: announcing(createRoleService(db), changes, { createRole: ["roles"], deleteRole: ["roles"] }),
  }),
  routes: async (api) => {
    await api.register(roleRoutes);
  },
});
