import { announcing } from "../../lib/change-bus";
import { defineModule } from "../../lib/module";
import coursePublishRoutes from "./publish-routes";
import courseRoutes from "./routes";
import type { CourseService } from "./service";
import { createCourseService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    courses: CourseService;
  }
}

/** Courses: the catalogue, each course's page and the learner's progress across them. */
export default defineModule({
  name: "courses",
  needs: ["lessons", "media"],
  provides: ["courses"],
  announces: ["courses"],
  routesRead: ["principals", "audit"],
  build: ({ db, changes }, { lessons, media }) => ({
    courses: announcing(createCourseService({ db, lessons, media, changes }), changes, {
      create: ["courses"],
      update: ["courses"],
      setPopular: ["courses"],
      publish: ["courses"],
      unpublish: ["courses"],
      delete: ["courses"],
    }),
  }),
  routes: async (api) => {
    await api.register(courseRoutes);
    await api.register(coursePublishRoutes);
  },
});
