import { rmSync } from "node:fs";
import { migrate, openDatabase } from "./db/client";
import { seedStructure } from "./db/seed";
import { createMailTemplateService } from "./modules/mail/template-service";

/**
 * Creates `dir` as a PGlite data folder holding every migration and what every installation
 * starts with whatever its configuration (permissions, roles, menu, default plan, the
 * transactional mail templates: the same idempotent steps a start runs, which then find them
 * done). The admin account, settings and demo content depend on each installation's
 * configuration: the first start adds them. Run by `npm run build`; `openDatabase({ template })`
 * starts new data folders from it. A template of older migrations (`migrationsFolder`, tests)
 * holds no data: the seed is written for the current schema.
 */
export async function makePgliteTemplate(dir: string, migrationsFolder?: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  const database = await openDatabase({ dir });
  try {
    await migrate(database, migrationsFolder);
    if (!migrationsFolder) {
      await database.db.transaction((tx) => seedStructure(tx));
      await createMailTemplateService(database.db).seedTransactional();
    }
    // everything written to the data files now: a copy opens without replaying the WAL
    await database.pglite?.exec("checkpoint");
  } finally {
    await database.close();
  }
}
