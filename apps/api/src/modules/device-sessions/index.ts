import { defineModule } from "../../lib/module";
import { createLastSeen } from "./last-seen";
import { createNewDeviceAlert } from "./new-device";
import deviceSessionRoutes from "./routes";
import { createDeviceSessions } from "./service";

declare module "../../lib/module" {
  interface AppServices {
    /** "Where you are signed in": the caller's live sessions, ending one or all the others. */
    deviceSessions: ReturnType<typeof createDeviceSessions>;
    /** Each session's last use, written at most every few minutes (the auth plugin tells it). */
    lastSeen: ReturnType<typeof createLastSeen>;
    /** The mail of a sign-in from a new device (a login hook of `auth`). */
    newDevice: ReturnType<typeof createNewDeviceAlert>;
  }
}

/**
 * Sessions people can see (issue 25, part 5): the profile's list of where a learner is signed in,
 * each session's last use, and the mail of a sign-in from a device and network not seen lately.
 */
export default defineModule({
  name: "device-sessions",
  needs: ["auth", "users", "mailPreferences", "mailOutbox", "transactionalMails"],
  provides: ["deviceSessions", "lastSeen", "newDevice"],
  announces: ["session"],
  build: ({ db, app, config, changes }, deps) => {
    const newDevice = createNewDeviceAlert({
      db,
      findUser: (id) => deps.users.findById(id),
      preferences: deps.mailPreferences,
      outbox: deps.mailOutbox,
      mails: deps.transactionalMails,
      publicUrl: config.publicUrl,
      log: app.log,
    });
    deps.auth.onLogin((userId, sessionId) => newDevice.signedIn(userId, sessionId));
    const lastSeen = createLastSeen({ db, log: app.log });
    // checks and writes that run after their answer: done before the database closes
    app.addHook("onClose", async () => {
      await newDevice.settled();
      await lastSeen.settled();
    });
    return { deviceSessions: createDeviceSessions({ db, changes }), lastSeen, newDevice };
  },
  routes: async (api) => {
    await api.register(deviceSessionRoutes);
  },
});
