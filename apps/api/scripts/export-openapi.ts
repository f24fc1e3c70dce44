// Writes the OpenAPI document built from the route schemas to docs/api/openapi.json, and the
// TypeScript types generated from it (openapi-typescript) to docs/api/openapi.d.ts.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildApp } from "../src/app";
import { loadConfig } from "../src/config";
import { migrate, openDatabase } from "../src/db/client";
import { clientTypesPath, clientTypesText, docsDir, documentPath, documentText } from "./openapi-artifacts";

const dataDir = mkdtempSync(path.join(tmpdir(), "parlons-openapi-"));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", PUBLIC_URL: "https://parlons.example" });
const database = await openDatabase({ dir: null });
await migrate(database);
const app = await buildApp({ config, database });
await app.ready();
const document = app.swagger();
mkdirSync(docsDir, { recursive: true });
writeFileSync(documentPath, documentText(document));
writeFileSync(clientTypesPath, await clientTypesText(document));
await app.close();
await database.close();
for (const out of [documentPath, clientTypesPath])
  console.log(`written: ${path.relative(process.cwd(), out)}`);
