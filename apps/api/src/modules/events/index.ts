import { announcing } from "../../lib/change-bus";
import { defineModule } from "../../lib/module";
import eventRoutes from "./routes";
import type { EventService } from "./service";
import { createEventService } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    events: EventService;
  }
}

/** Live events (classes, meet-ups): sessions, seats, waiting lists, reminders and calendars. */
export default defineModule({
  name: "events",
  needs: [
    "users",
    "notifications",
    "audit",
    "entitlement",
    "principals",
    "mailOutbox",
    "transactionalMails",
    "settings",
    "push",
  ],
  provides: ["events"],
  // every write of events and places: the learners' kept bookings and notifications follow
  announces: ["events"],
  build: ({ db, config, changes }, deps) => ({
    events: announcing(
      createEventService({
        db,
        users: deps.users,
        notifications: deps.notifications,
        audit: deps.audit,
        // what the learner's plan opens, from memory until it changes
        entitlement: { accessOf: deps.principals.accessOf, canJoinEvent: deps.entitlement.canJoinEvent },
        outbox: deps.mailOutbox,
        mails: deps.transactionalMails,
        settings: deps.settings,
        push: deps.push,
        publicUrl: config.publicUrl,
      }),
      changes,
      {
        create: ["events"],
        update: ["events"],
        delete: ["events"],
        book: ["events"],
        cancel: ["events"],
      },
    ),
  }),
  routes: async (api) => {
    await api.register(eventRoutes);
  },
});
