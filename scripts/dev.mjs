#!/usr/bin/env node
// `npm run dev`: the API with reload (tsx watch) on :3000 and Vite's dev server on :5173 proxying /api.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const children = [
  spawn("npm", ["run", "dev", "-w", "@parlons/api"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, DATA_DIR: process.env.DATA_DIR ?? path.join(root, "data") },
  }),
  spawn("npm", ["run", "dev", "-w", "@parlons/web"], { cwd: root, stdio: "inherit" }),
];
const stop = () => {
  for (const c of children) c.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const c of children)
  c.on("exit", (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
