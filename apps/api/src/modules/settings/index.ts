import { defineModule } from "../../lib/module";
import settingsRoutes from "./routes";
import type { SettingsService } from "./service";
import { createSettingsService, settingsDefaults } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    settings: SettingsService;
  }
}

/** The site's settings staff edit (names, addresses, audio base URL…), defaults from the configuration. */
export default defineModule({
  name: "settings",
  needs: ["audit"],
  provides: ["settings"],
  announces: ["settings"],
  build: ({ db, config, changes }, { audit }) => ({
    settings: createSettingsService({ db, defaults: settingsDefaults(config), changes, audit }),
  }),
  routes: async (api) => {
    await api.register(settingsRoutes);
  },
});
