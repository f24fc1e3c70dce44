// Writes the OpenAPI document built from the route schemas to docs/api/openapi.json.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { migrate, openDatabase } from "../src/db/client";
import { apiRoot } from "../src/paths";

const dataDir = mkdtempSync(path.join(tmpdir(), "parlons-openapi-"));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", PUBLIC_URL: "https://parlons.example" });
const database = await openDatabase({ dir: null });
await migrate(database);
const app = await buildApp({ config, database });
await app.ready();
const out = path.resolve(apiRoot, "../../docs/api/openapi.json");
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
await app.close();
await database.close();
console.log(`OpenAPI document written to ${path.relative(process.cwd(), out)}`);
