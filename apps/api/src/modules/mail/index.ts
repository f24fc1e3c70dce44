import { defineModule } from "../../lib/module";
import { listenedSince } from "../habit/queries";
import { progressInCourse, progressSince } from "../lessons/queries";
import { reviewedSince } from "../review/queries";
import { createAudienceQuery } from "../users/queries";
import { createCampaignService } from "./campaign-service";
import type { DeliveryQueue } from "./deliveries";
import { createDeliveryQueue } from "./deliveries";
import type { MailOutbox } from "./outbox";
import { createMailOutbox } from "./outbox";
import mailPreferenceRoutes from "./preferences-routes";
import type { MailPreferencesService } from "./preferences-service";
import { createMailPreferences } from "./preferences-service";
import mailRoutes from "./routes";
import type { MailTemplateService } from "./template-service";
import { createMailTemplateService } from "./template-service";
import type { TransactionalMails } from "./transactional";
import { createTransactionalMails } from "./transactional";

declare module "../../lib/module" {
  interface AppServices {
    mailTemplates: MailTemplateService;
    mailOutbox: MailOutbox;
    transactionalMails: TransactionalMails;
    mailPreferences: MailPreferencesService;
    campaigns: ReturnType<typeof createCampaignService>;
    mailDeliveries: DeliveryQueue;
  }
}

/**
 * Mail: the templates staff edit, the outbox every module's transactional mail goes through,
 * campaigns to an audience and their delivery queue, each recipient's preferences.
 */
export default defineModule({
  name: "mail",
  needs: ["users", "courses"],
  provides: [
    "mailTemplates",
    "mailOutbox",
    "transactionalMails",
    "mailPreferences",
    "campaigns",
    "mailDeliveries",
  ],
  routesRead: ["audit"],
  build: ({ db, app, config }, { users, courses }) => {
    const { publicUrl } = config;
    const mailTemplates = createMailTemplateService(db);
    const mailOutbox = createMailOutbox({ db });
    const transactionalMails = createTransactionalMails({
      publicUrl,
      findActive: (slug, tx) => mailTemplates.findActive(slug, tx),
      log: app.log,
    });
    const mailPreferences = createMailPreferences({
      db,
      secret: config.jwtSecret,
      previousSecret: config.jwtPreviousSecret,
      publicUrl,
      findUser: (id) => users.findById(id),
    });
    const campaigns = createCampaignService({
      db,
      // which users an audience reaches: the users module asks the learning modules' published
      // queries whether each was active
      audience: createAudienceQuery(db, {
        inCourse: progressInCourse,
        since: [progressSince, listenedSince, reviewedSince],
      }),
      templates: mailTemplates,
      preferences: mailPreferences,
      outbox: mailOutbox,
      courseExists: async (id) => (await courses.findByIds([id])).length > 0,
      publicUrl,
    });
    const mailDeliveries = createDeliveryQueue({ db, publicUrl, preferences: mailPreferences });
    return { mailTemplates, mailOutbox, transactionalMails, mailPreferences, campaigns, mailDeliveries };
  },
  routes: async (api) => {
    await api.register(mailRoutes);
    await api.register(mailPreferenceRoutes);
  },
});
