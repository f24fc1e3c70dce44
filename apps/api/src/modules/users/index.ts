import { announcing } from "../../lib/change-bus";
import { defineModule } from "../../lib/module";
import userRoutes from "./routes";
import type { UserService } from "./service";
import { createUserService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    users: UserService;
  }
}

/** Accounts: who they are, their status and roles. */
export default defineModule({
  name: "users",
  needs: ["roles"],
  provides: ["users"],
  announces: ["user"],
  routesRead: ["sessions", "audit"],
  build: ({ db, changes }, { roles }) => {
    // inside a caller's transaction nothing is told: the caller tells after its commit
    const own = (tx: unknown) => tx === undefined || tx === db;
    return {
      users: announcing(createUserService(db, roles), changes, {
        update: (id, _patch, tx) => (own(tx) ? [`user:${id}`] : []),
        setRole: (id, _title, tx) => (own(tx) ? [`user:${id}`] : []),
      }),
    };
  },
  routes: async (api) => {
    await api.register(userRoutes);
  },
});
