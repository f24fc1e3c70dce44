import { defineModule } from "../../lib/module";
import pushRoutes from "./routes";
import type { PushService } from "./service";
import { createPushService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    push: PushService;
  }
}

/** Reminders as notifications (Web Push): the learner's subscribed browsers, and sending to them. */
export default defineModule({
  name: "push",
  needs: [],
  provides: ["push"],
  build: ({ db, config, app }) => ({
    push: createPushService({
      db,
      config: config.push,
      warn: (fields, message) => app.log.warn(fields, message),
    }),
  }),
  routes: async (api) => {
    await api.register(pushRoutes);
  },
});
