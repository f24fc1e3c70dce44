import { defineModule } from "../../lib/module";
import analyticsRoutes from "./routes";
import { createAnalyticsService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    analytics: ReturnType<typeof createAnalyticsService>;
  }
}

/** Staff figures, rolled up by its job from what the learning and billing modules wrote. */
export default defineModule({
  name: "analytics",
  needs: [],
  provides: ["analytics"],
  build: ({ db, clock }) => ({ analytics: createAnalyticsService({ db, clock }) }),
  routes: async (api) => {
    await api.register(analyticsRoutes);
  },
});
