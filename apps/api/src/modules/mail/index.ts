import { defineModule } from "../../lib/module";
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
  needs: ["users", "audience", "courses"],
  provides: [
    "mailTemplates",
    "mailOutbox",
    "transactionalMails",
    "mailPreferences",
    "campaigns",
    "mailDeliveries",
  ],
  routesRead: ["audit"],
  build: ({ db, app, config }, { users, audience, courses }) => {
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
      audience,
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
