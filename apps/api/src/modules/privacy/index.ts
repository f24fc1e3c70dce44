import { defineModule } from "../../lib/module";
import privacyRoutes from "./routes";
import { createPrivacyService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    privacy: ReturnType<typeof createPrivacyService>;
  }
}

/** The learner's data rights: their export, and erasure of their account. */
export default defineModule({
  name: "privacy",
  needs: ["recordings", "sessions", "billing", "audit"],
  provides: ["privacy"],
  announces: ["user", "events"],
  build: ({ db, app, config, mailer, changes }, deps) => ({
    privacy: createPrivacyService({
      db,
      ...deps,
      mailer,
      changes,
      log: app.log,
      dataDir: config.dataDir,
      publicUrl: config.publicUrl,
      syncMaxRows: config.exportSyncMaxRows,
    }),
  }),
  routes: async (api) => {
    await api.register(privacyRoutes);
  },
});
