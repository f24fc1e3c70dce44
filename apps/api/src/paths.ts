import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The apps/api folder, whether this code runs from src/ (tsx, tests) or from the
 * bundled dist/server.js: both sit one level below it.
 */
export const apiRoot = path.resolve(fileURLToPath(new URL(".", import.meta.url)), "..");
export const migrationsDir = path.join(apiRoot, "drizzle");
export const seedMediaDir = path.join(apiRoot, "seed-media");
export const defaultWebDist = path.resolve(apiRoot, "../web/dist");
/** A migrated, empty PGlite data folder made by `npm run build`: new databases start as a copy. */
export const pgliteTemplateDir = path.join(apiRoot, "dist", "pglite-template");
