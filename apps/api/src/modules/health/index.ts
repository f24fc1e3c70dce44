import { defineModule } from "../../lib/module";
import healthRoutes from "./routes";

/** The load balancer's and the operator's checks. */
export default defineModule({
  name: "health",
  needs: [],
  provides: [],
  routes: async (api) => {
    await api.register(healthRoutes);
  },
});
