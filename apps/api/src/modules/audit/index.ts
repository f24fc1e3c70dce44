import { defineModule } from "../../lib/module";
import { currentRequestMeta } from "../../lib/request-meta";
import auditRoutes from "./routes";
import type { AuditService } from "./service";
import { createAuditService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    audit: AuditService;
  }
}

/** The audit log: the only writer of its table, every module records through it. */
export default defineModule({
  name: "audit",
  needs: [],
  provides: ["audit"],
  build: ({ db }) => ({ audit: createAuditService({ db, meta: currentRequestMeta }) }),
  routes: async (api) => {
    await api.register(auditRoutes);
  },
});
