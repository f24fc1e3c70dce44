import { defineModule } from "../../lib/module";
import podcastRoutes from "./routes";
import type { PodcastService } from "./service";
import { createPodcastService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    podcast: PodcastService;
  }
}

/** Each learner's private podcast feed of the lessons that open for them, and its episodes' files. */
export default defineModule({
  name: "podcast",
  needs: ["users", "entitlement", "lessons", "courses", "media", "review", "handsFreeAudio"],
  provides: ["podcast"],
  build: (
    { db, config, clock },
    { users, entitlement, lessons, courses, media, review, handsFreeAudio },
  ) => ({
    podcast: createPodcastService({
      db,
      publicUrl: config.publicUrl,
      secret: config.jwtSecret,
      users,
      entitlement,
      lessons,
      courses,
      media,
      review,
      handsFreeAudio,
      clock,
    }),
  }),
  routes: async (api) => {
    await api.register(podcastRoutes);
  },
});
