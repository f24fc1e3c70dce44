import type { Config } from "./config";
import type { Db } from "./db/client";
import { seedDemoCourses } from "./db/demo/courses";
import { seedDemoEvent } from "./db/demo/events";
import { seedDemoPlans } from "./db/demo/plans";
import { type SeedResult, seedBase } from "./db/seed";
import { createStorage } from "./integrations/storage";
import { createAuditService } from "./modules/audit/service";
import { createMailTemplateService } from "./modules/mail/template-service";
import { createSettingsService, settingsDefaults } from "./modules/settings/service";

/** Everything a fresh install needs; every step is idempotent, so it runs at each start. */
export async function seedAll(db: Db, config: Config): Promise<SeedResult> {
  const base = await seedBase(db, { email: config.admin.email, password: config.admin.password });
  // the settings row starts from AUDIO_BASE_URL and CONTACT_EMAIL; later starts leave it alone
  await createSettingsService({
    db,
    defaults: settingsDefaults(config),
    audit: createAuditService({ db }),
  }).ensure();
  // activation, welcome and password-reset texts as editable templates; edited ones are kept
  await createMailTemplateService(db).seedTransactional();
  if (config.seedDemo) {
    await seedDemoPlans(db);
    await seedDemoCourses(db, createStorage(config.media));
    await seedDemoEvent(db);
  }
  return base;
}
