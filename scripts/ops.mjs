#!/usr/bin/env node
// `npm run backup`, `npm run restore FILE`, `npm run migrate-to-postgres`: builds the API bundle
// when it is missing or stale (as `npm start` does), then runs the command in dist/ops.js.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { recordBuilt, sourcesOf, state, targets } from "./build-state.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const api = targets.api;
const why = state(root, api);
if (why !== "fresh") {
  console.log(`Building the API (${why})…`);
  const { fingerprint } = sourcesOf(root, api);
  const result = spawnSync("npm", ["run", "build", "-w", api.workspace], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  recordBuilt(root, api, fingerprint);
}
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(root, "apps/api/dist/ops.js")).href);
