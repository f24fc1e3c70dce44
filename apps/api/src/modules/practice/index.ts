import { defineModule } from "../../lib/module";
import { createHandsFreeService, type HandsFreeService } from "./hands-free";
import practiceRoutes from "./routes";
import type { PracticeService } from "./service";
import { createPracticeService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    practice: PracticeService;
    handsFree: HandsFreeService;
  }
}

/**
 * Exercises made from every line of the learner's deck (dictation, cloze, recall) and the
 * hands-free daily session (echo and recall), graded into the review deck.
 */
export default defineModule({
  name: "practice",
  needs: ["review", "lessons", "courses"],
  provides: ["practice", "handsFree"],
  routesRead: ["principals"],
  build: (_ctx, { review, lessons, courses }) => ({
    practice: createPracticeService({ review, lessons, courses }),
    handsFree: createHandsFreeService({ review, courses }),
  }),
  routes: async (api) => {
    await api.register(practiceRoutes);
  },
});
