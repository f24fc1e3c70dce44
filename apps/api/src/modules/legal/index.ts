import { defineModule } from "../../lib/module";
import legalRoutes from "./routes";

/** The legal pages, filled from the settings and the staff's saved texts. */
export default defineModule({
  name: "legal",
  needs: [],
  provides: [],
  routesRead: ["configs", "settings"],
  routes: async (api) => {
    await api.register(legalRoutes);
  },
});
