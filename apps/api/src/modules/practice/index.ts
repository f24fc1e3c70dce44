import { defineModule } from "../../lib/module";
import practiceRoutes from "./routes";
import type { PracticeService } from "./service";
import { createPracticeService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    practice: PracticeService;
  }
}

/** Exercises made from every line of the learner's deck (dictation, cloze, recall), graded into the review deck. */
export default defineModule({
  name: "practice",
  needs: ["review", "lessons", "courses"],
  provides: ["practice"],
  routesRead: ["principals"],
  build: (_ctx, { review, lessons, courses }) => ({
    practice: createPracticeService({ review, lessons, courses }),
  }),
  routes: async (api) => {
    await api.register(practiceRoutes);
  },
});
