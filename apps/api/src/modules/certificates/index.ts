import { defineModule } from "../../lib/module";
import certificateRoutes from "./routes";
import { createCertificateService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    certificates: ReturnType<typeof createCertificateService>;
  }
}

/** The certificate a learner earns at the end of a course (PDF), and its public check. */
export default defineModule({
  name: "certificates",
  needs: ["users", "courses", "lessons", "audit"],
  provides: ["certificates"],
  build: ({ db }, deps) => ({ certificates: createCertificateService({ db, ...deps }) }),
  routes: async (api) => {
    await api.register(certificateRoutes);
  },
});
