import { defineModule } from "../../lib/module";
import configRoutes from "./routes";
import { createConfigService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    configs: ReturnType<typeof createConfigService>;
  }
}

/** Staff-edited texts and values kept by key (legal texts among them). */
export default defineModule({
  name: "configs",
  needs: ["audit"],
  provides: ["configs"],
  build: ({ db }, { audit }) => ({ configs: createConfigService({ db, audit }) }),
  routes: async (api) => {
    await api.register(configRoutes);
  },
});
