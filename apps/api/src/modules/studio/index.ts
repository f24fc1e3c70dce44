import { defineModule } from "../../lib/module";
import importRoutes from "./import-routes";
import studioRoutes from "./routes";

/**
 * The creator studio's work on a whole course: its lines' translations exported as a file and
 * imported back (the lessons module reads and writes the lines); a drop of audio files and scripts
 * (or zips of them) made into lessons, aligned by the alignment module.
 */
export default defineModule({
  name: "studio",
  needs: [],
  provides: [],
  routesRead: ["courses", "lineTranslations", "lessons", "media", "alignment", "audit"],
  routes: async (api) => {
    await api.register(studioRoutes);
    // in a scope of its own: multipart bodies of many files
    await api.register(importRoutes);
  },
});
