import { defineModule } from "../../lib/module";
import notificationRoutes from "./routes";
import type { NotificationService } from "./service";
import { createNotificationService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    notifications: NotificationService;
  }
}

/** The in-app notifications a user reads and marks read. */
export default defineModule({
  name: "notifications",
  needs: [],
  provides: ["notifications"],
  announces: ["notifications"],
  build: ({ db, changes }) => ({ notifications: createNotificationService({ db, changes }) }),
  routes: async (api) => {
    await api.register(notificationRoutes);
  },
});
