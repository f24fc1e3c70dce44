import { announcing } from "../../lib/change-bus";
import { defineModule } from "../../lib/module";
import planRoutes from "./routes";
import type { PlanService } from "./service";
import { createPlanService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    plans: PlanService;
  }
}

/** The plans on sale and their prices at the payment providers. */
export default defineModule({
  name: "plans",
  needs: [],
  provides: ["plans"],
  announces: ["plans"],
  routesRead: ["audit", "courses", "events"],
  build: ({ db, providers, changes }) => ({
    plans: announcing(createPlanService({ db, providers }), changes, {
      create: ["plans"],
      update: ["plans"],
      remove: ["plans"],
      providerPlanIdOf: ["plans"],
    }),
  }),
  routes: async (api) => {
    await api.register(planRoutes);
  },
});
