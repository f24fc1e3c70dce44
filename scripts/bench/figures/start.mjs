// Start (issue 9, part 6): `npm start` on the built tree, time from spawn to the first 200 on
// /api/health, with a fresh DATA_DIR (or database) and again with the one the first start
// left; then the idle RSS of the whole process tree (npm, scripts/start.mjs, the server).
// On PGlite always; on PostgreSQL too when DATABASE_URL is set (in a database of its own,
// `<name>_start`, created and dropped here).
import path from "node:path";
import { processTree, sleep, startParlons } from "../lib/processes.mjs";

export const name = "start";
/** Measured once the shared server has stopped: its jobs' first runs (30 s after its start) fell on these starts. */
export const alone = true;

const IDLE_MS = 5000;
const mb = (bytes) => bytes / 1024 / 1024;
/** "npm start", "node start.mjs"…: a process by the names of its program and script. */
const processName = ({ command }) =>
  command
    .split(" ")
    .slice(0, 2)
    .map((part) => path.basename(part))
    .join(" ");

async function measure(ctx, { label, dataDir, databaseUrl }) {
  const rows = [];
  for (const state of ["fresh", "existing"]) {
    const server = await startParlons({
      command: "npm",
      port: ctx.port(),
      dataDir,
      databaseUrl,
      env: { ADMIN_EMAIL: "start-admin@bench.parlons.local", ADMIN_PASSWORD: "Bench-start-2026!" },
    });
    try {
      rows.push({
        figure: `npm start to first 200, ${state} ${label}`,
        ours: server.ms / 1000,
        unit: "s",
        target: "ours<=3",
        note: state === "fresh" ? "empty DATA_DIR (or database)" : "the one the first start left",
      });
      if (state === "existing") {
        await sleep(IDLE_MS);
        const tree = processTree(server.child.pid);
        const total = tree.reduce((sum, p) => sum + p.rss, 0);
        const biggest = tree.reduce((a, b) => (b.rss > a.rss ? b : a));
        rows.push({
          figure: `idle RSS after start, ${label}`,
          ours: mb(total),
          unit: "MB",
          note: `${tree.map(processName).join(", ")}; the largest ${mb(biggest.rss).toFixed(0)} MB; ${IDLE_MS / 1000} s after ready`,
        });
      }
    } finally {
      await server.stop();
    }
  }
  return rows;
}

export async function run(ctx) {
  const rows = await measure(ctx, { label: "PGlite", dataDir: path.join(ctx.tmpDir, "start-pglite") });
  if (ctx.databaseUrl) {
    const { default: pg } = await import("pg");
    const url = new URL(ctx.databaseUrl);
    const dbName = `${url.pathname.slice(1)}_start`;
    const admin = new pg.Client({ connectionString: ctx.databaseUrl });
    await admin.connect();
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${dbName}"`);
      await admin.query(`CREATE DATABASE "${dbName}"`);
      url.pathname = `/${dbName}`;
      rows.push(
        ...(await measure(ctx, {
          label: "PostgreSQL",
          dataDir: path.join(ctx.tmpDir, "start-postgres"),
          databaseUrl: url.toString(),
        })),
      );
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${dbName}"`).catch(() => {});
      await admin.end();
    }
  }
  return rows;
}
