import type { Config } from "../config";
import type { Db } from "./client";
import { type SeedResult, seedBase } from "./seed";

/** Everything a fresh install needs; every step is idempotent, so it runs at each start. */
export async function seedAll(db: Db, config: Config): Promise<SeedResult> {
  const base = await seedBase(db, { email: config.admin.email, password: config.admin.password });
  return base;
}
