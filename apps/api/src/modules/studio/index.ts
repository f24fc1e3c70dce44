import { defineModule } from "../../lib/module";
import studioRoutes from "./routes";

/**
 * The creator studio's work on a whole course: its lines' translations exported as a file and
 * imported back (the lessons module reads and writes the lines).
 */
export default defineModule({
  name: "studio",
  needs: [],
  provides: [],
  routesRead: ["courses", "lineTranslations"],
  routes: async (api) => {
    await api.register(studioRoutes);
  },
});
