import type { Config } from "../config";
import { createStorage } from "../integrations/storage";
import { createMailTemplateService } from "../modules/mail/template-service";
import { createSettingsService, settingsDefaults } from "../modules/settings/service";
import type { Db } from "./client";
import { seedDemoCourse } from "./demo/courses";
import { seedDemoEvent } from "./demo/events";
import { seedDemoPlans } from "./demo/plans";
import { type SeedResult, seedBase } from "./seed";

/** Everything a fresh install needs; every step is idempotent, so it runs at each start. */
export async function seedAll(db: Db, config: Config): Promise<SeedResult> {
  const base = await seedBase(db, { email: config.admin.email, password: config.admin.password });
  // the settings row starts from AUDIO_BASE_URL and CONTACT_EMAIL; later starts leave it alone
  await createSettingsService({ db, defaults: settingsDefaults(config) }).ensure();
  // activation, welcome and password-reset texts as editable templates; edited ones are kept
  await createMailTemplateService(db).seedTransactional();
  if (config.seedDemo) {
    await seedDemoPlans(db);
    await seedDemoCourse(db, createStorage(config.media));
    await seedDemoEvent(db);
  }
  return base;
}
