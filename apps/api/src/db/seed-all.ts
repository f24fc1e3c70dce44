import type { Config } from "../config";
import { createStorage } from "../integrations/storage/storage";
import { seedDemoCourse } from "../modules/courses/seed-demo";
import { seedDemoPlans } from "../modules/plans/seed-demo";
import type { Db } from "./client";
import { type SeedResult, seedBase } from "./seed";

/** Everything a fresh install needs; every step is idempotent, so it runs at each start. */
export async function seedAll(db: Db, config: Config): Promise<SeedResult> {
  const base = await seedBase(db, { email: config.admin.email, password: config.admin.password });
  if (config.seedDemo) {
    await seedDemoPlans(db);
    await seedDemoCourse(db, createStorage(config.media));
  }
  return base;
}
