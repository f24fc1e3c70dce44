import { rmSync } from "node:fs";
import { migrate, openDatabase } from "./client";

/**
 * Creates `dir` as a PGlite data folder holding every migration and no data (no seed: the admin
 * account, settings and demo content depend on each installation's configuration). Run by
 * `npm run build`; `openDatabase({ template })` starts new data folders from it.
 */
export async function makePgliteTemplate(dir: string, migrationsFolder?: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  const database = await openDatabase({ dir });
  try {
    await migrate(database, migrationsFolder);
  } finally {
    await database.close();
  }
}
