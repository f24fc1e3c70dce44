import { defineModule } from "../../lib/module";
import habitRoutes from "./routes";
import type { HabitService } from "./service";
import { createHabitService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    habit: HabitService;
  }
}

/** The learner's daily habit: goal, streak, listening minutes and the reminder mail. */
export default defineModule({
  name: "habit",
  needs: ["users", "review", "mailPreferences", "mailOutbox", "transactionalMails", "push"],
  provides: ["habit"],
  build: ({ db, config, clock }, deps) => ({
    habit: createHabitService({
      db,
      users: deps.users,
      review: deps.review,
      preferences: deps.mailPreferences,
      outbox: deps.mailOutbox,
      mails: deps.transactionalMails,
      push: deps.push,
      publicUrl: config.publicUrl,
      clock,
    }),
  }),
  routes: async (api) => {
    await api.register(habitRoutes);
  },
});
