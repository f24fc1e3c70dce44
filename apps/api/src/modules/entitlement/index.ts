import { defineModule } from "../../lib/module";
import type { EntitlementService } from "./service";
import { createEntitlementService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    entitlement: EntitlementService;
  }
}

/** What a learner's plan and purchases open (the cached answer per principal is `principals.accessOf`, auth module). */
export default defineModule({
  name: "entitlement",
  needs: ["billing", "purchases"],
  provides: ["entitlement"],
  build: (_ctx, { billing, purchases }) => ({
    entitlement: createEntitlementService({ billing, purchases }),
  }),
});
