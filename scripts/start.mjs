#!/usr/bin/env node
// `npm start`: builds what is missing, then runs the API (which migrates, seeds and serves the web app).
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  console.error(`Parlons needs Node.js 22.12 or newer (24 recommended); this is ${process.version}.`);
  process.exit(1);
}

const run = (args) => {
  const result = spawnSync("npm", args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

const webIndex = path.join(root, "apps/web/dist/index.html");
const apiBundle = path.join(root, "apps/api/dist/server.js");
const force = process.argv.includes("--rebuild");
if (force || !existsSync(webIndex)) {
  console.log("Building the web app…");
  run(["run", "build", "-w", "@parlons/web"]);
}
if (force || !existsSync(apiBundle) || statSync(apiBundle).size === 0) {
  console.log("Building the API…");
  run(["run", "build", "-w", "@parlons/api"]);
}

const child = spawnSync(process.execPath, ["--enable-source-maps", apiBundle], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", ...process.env },
});
process.exit(child.status ?? 0);
