#!/usr/bin/env node
// `npm start`: builds what is missing or stale, then runs the API in this very process (it
// migrates, seeds and serves the web app). An unchanged tree is never rebuilt; `--rebuild` forces it.
// (warm-node.mjs must stay the first import: see there)
import "./warm-node.mjs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { recordBuilt, sourcesOf, state, targets } from "./build-state.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  console.error(`Parlons needs Node.js 22.12 or newer (24 recommended); this is ${process.version}.`);
  process.exit(1);
}

const force = process.argv.includes("--rebuild");
for (const [name, target] of Object.entries(targets)) {
  const why = force ? "--rebuild" : state(root, target);
  if (why === "fresh") continue;
  console.log(`Building the ${name === "web" ? "web app" : "API"} (${why})…`);
  // the sources as they are before the build: an edit made during it triggers the next one
  const { fingerprint } = sourcesOf(root, target);
  const result = spawnSync("npm", ["run", "build", "-w", target.workspace], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
  recordBuilt(root, target, fingerprint);
}

// The server runs here rather than in a child process: one Node start-up less, and signals
// (Ctrl-C, SIGTERM from a supervisor) reach the server's graceful shutdown directly.
process.env.NODE_ENV ??= "production";
process.setSourceMapsEnabled(true);
await import(pathToFileURL(path.join(root, targets.api.output)).href);
