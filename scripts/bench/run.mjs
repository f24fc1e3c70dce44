#!/usr/bin/env node
/**
 * `npm run bench`: the speed figures of issue 9, each against a reference measured in the same run.
 * A benchmark, not a test: nothing here asserts a timing; it prints a table and writes JSON.
 *
 *   npm run bench                              every figure, PGlite in a temp DATA_DIR
 *   DATABASE_URL=postgres://… npm run bench    the same on PostgreSQL (that database, as it is)
 *   npm run bench -- --only=api,audio          a subset of the figure modules
 *   npm run bench -- --duration=5              seconds of load per measurement (default 10)
 *   npm run bench -- --compare a.json b.json   two result files side by side
 *   npm run bench -- --no-json                 do not write bench-results/<date>-<commit>.json
 *   BENCH_PORT (default 3200)                  first of the ~10 ports used (server, references, nginx)
 *   ADMIN_EMAIL / ADMIN_PASSWORD               staff account used to prepare data (bench defaults;
 *                                              with DATABASE_URL, an existing account must match)
 *
 * What it does: builds what is missing and starts the production server as `npm start` does
 * (scripts/start.mjs, NODE_ENV=production), prepares data through the public API (a course with
 * 8 lessons, 4 free, sharing a real ~10 MB MP3; a learner on the free plan and their token),
 * runs each figure module, prints one table and writes the rows as JSON.
 *
 * Figure modules: scripts/bench/figures/<name>.mjs export
 *   name        string (what --only matches)
 *   needs       optional: "postgres" to run only when DATABASE_URL is set
 *   alone       optional: true to run after the shared server has stopped (its background jobs
 *               would compete with what the module measures); ctx then holds databaseUrl,
 *               tmpDir, log and port() only
 *   run(ctx)    async, returns rows:
 *                 { figure, ours, reference, ratio, p95, p99, non2xx, unit, target, note }
 *               (null where not applicable; ratio is derived from ours/reference when null;
 *               target is an expression over the row checked by the runner: "ratio>=0.85",
 *               "ours<=3000", "p95<=50"; the table shows it and whether it is met)
 * ctx:
 *   baseUrl          the running server, e.g. http://127.0.0.1:3200
 *   databaseUrl      DATABASE_URL or undefined (PGlite)
 *   dataDir          the server's DATA_DIR (media under dataDir/media)
 *   duration         seconds of load per measurement
 *   adminToken()     async: a fresh-enough staff access token
 *   learner          { email, password, token, id }: a CUSTOMER on the free plan
 *   course           { id, slug } with lessonIds, freeLessonId (ctx.lessonIds, ctx.freeLessonId)
 *   audioKey         storage key of the MP3 (relative to dataDir/media); audioBytes its size
 *   load(opts)       autocannon in a child process: { path | url, method, headers, body,
 *                    connections (100), pipelining (10), duration (ctx.duration), range: { size, chunk } }
 *                    → { rps, p95, p99, non2xx, errors, timeouts, requests, bytesPerSec }
 *   refServer(bytes, headers, status = 200)
 *                    a raw node:http server in its own process answering those bytes → { url, stop() }
 *   fetchRaw(path, headers)  one GET (no Accept-Encoding) → { status, headers (entries), body }
 *   port()           the next free port of the bench's range
 *   tmpDir           a temp folder removed at the end
 *   restartServer(env)  restarts the server on the same DATA_DIR with extra environment
 *   server           { pid, rss() } of the running server's process tree
 *   log(message)     progress on stderr
 */
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { prepareData, signIn } from "./lib/prepare.mjs";
import { load, rawGet, refServer, root, startParlons } from "./lib/processes.mjs";
import { formatCompare, formatTable, normaliseRow } from "./lib/table.mjs";

const argv = process.argv.slice(2);
function option(name) {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  const a = argv[i];
  return a.includes("=") ? a.slice(a.indexOf("=") + 1) : (argv[i + 1] ?? "");
}
const log = (message) => process.stderr.write(`[bench] ${message}\n`);

if (argv.includes("--compare")) {
  const files = argv.slice(argv.indexOf("--compare") + 1).filter((a) => !a.startsWith("--"));
  if (files.length !== 2) {
    console.error("usage: npm run bench -- --compare a.json b.json");
    process.exit(2);
  }
  const [a, b] = files.map((f) => JSON.parse(readFileSync(f, "utf8")));
  console.log(formatCompare(a, b));
  process.exit(0);
}

const duration = Number(option("duration") ?? 10);
if (!(duration > 0)) {
  console.error("--duration must be a number of seconds");
  process.exit(2);
}
const only = option("only")?.split(",").filter(Boolean);
const databaseUrl = process.env.DATABASE_URL || undefined;
const basePort = Number(process.env.BENCH_PORT ?? 3200);
const admin = {
  email: process.env.ADMIN_EMAIL ?? "bench-admin@parlons.local",
  password: process.env.ADMIN_PASSWORD ?? "Bench-admin-2026!",
};

const figuresDir = path.join(root, "scripts/bench/figures");
const modules = [];
for (const file of readdirSync(figuresDir)
  .filter((f) => f.endsWith(".mjs"))
  .sort()) {
  const mod = await import(pathToFileURL(path.join(figuresDir, file)).href);
  if (only && !only.includes(mod.name)) continue;
  if (mod.needs === "postgres" && !databaseUrl) {
    log(`${mod.name}: skipped (needs DATABASE_URL)`);
    continue;
  }
  modules.push(mod);
}
if (only) {
  const unknown = only.filter((n) => !modules.some((m) => m.name === n));
  if (unknown.length) log(`no figure module named ${unknown.join(", ")} (or it needs DATABASE_URL)`);
}

const git = (...args) => {
  try {
    return execFileSync("git", args, {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return null;
  }
};
const commit = git("rev-parse", "--short", "HEAD") ?? "unknown";
const dirty = git("status", "--porcelain", "--untracked-files=no") ? "-dirty" : "";

const tmpDir = mkdtempSync(path.join(os.tmpdir(), "parlons-bench-"));
const dataDir = path.join(tmpDir, "data");
let nextPort = basePort + 1;
const serverEnv = {
  ADMIN_EMAIL: admin.email,
  ADMIN_PASSWORD: admin.password,
  // long enough for the whole run (the learner's token is used by every load)
  ACCESS_TOKEN_TTL: "86400",
  // the bench signs in a few accounts in a row
  RATE_LIMIT_AUTH_MAX: "1000",
};
let server;
const rows = [];
const started = new Date();

const runModule = async (mod, ctx) => {
  log(`${mod.name}…`);
  try {
    for (const row of await mod.run(ctx)) {
      const r = normaliseRow(row);
      rows.push(r);
      log(
        `  ${r.figure}: ${r.ours?.toFixed?.(1) ?? r.ours} ${r.unit ?? ""} (ref ${r.reference?.toFixed?.(1) ?? "–"})`,
      );
    }
  } catch (err) {
    log(`${mod.name} failed: ${err.stack ?? err}`);
    rows.push(
      normaliseRow({ figure: `${mod.name} (failed)`, note: String(err.message ?? err).split("\n")[0] }),
    );
  }
};
const aloneOnly = modules.length > 0 && modules.every((m) => m.alone);
try {
  if (aloneOnly) {
    // nothing needs the shared server (e.g. --only=align): do not build and start it
    for (const mod of modules) await runModule(mod, { databaseUrl, tmpDir, log, port: () => nextPort++ });
  } else {
    log(
      `starting Parlons (${databaseUrl ? "PostgreSQL" : "PGlite"}) on port ${basePort}; DATA_DIR ${dataDir}`,
    );
    server = await startParlons({ port: basePort, dataDir, databaseUrl, env: serverEnv, timeoutMs: 600_000 });
    const baseUrl = server.url;
    log(`ready in ${(server.ms / 1000).toFixed(1)} s (including any build)`);
    const data = await prepareData(baseUrl, { admin, log });
    let adminToken = { value: data.adminToken, at: Date.now() };

    const ctx = {
      baseUrl,
      databaseUrl,
      dataDir,
      duration,
      tmpDir,
      log,
      learner: data.learner,
      course: data.course,
      lessonIds: data.lessonIds,
      freeLessonId: data.freeLessonId,
      audioKey: data.audioKey,
      audioBytes: data.audioBytes,
      async adminToken() {
        if (Date.now() - adminToken.at > 10 * 60_000) {
          adminToken = { value: await signIn(ctx.baseUrl, admin.email, admin.password), at: Date.now() };
        }
        return adminToken.value;
      },
      port: () => nextPort++,
      async load(opts) {
        const url = opts.url ?? `${ctx.baseUrl}${opts.path}`;
        const result = await load({ connections: 100, pipelining: 10, duration, ...opts, url });
        // requests still queued when autocannon stopped are served after it: wait for them so
        // that they do not count against the next measurement
        if (url.startsWith(ctx.baseUrl)) await rawGet(`${ctx.baseUrl}/api/health`);
        return result;
      },
      refServer: (bytes, headers, status = 200) => {
        const skip = new Set(["connection", "keep-alive", "transfer-encoding", "date", "content-length"]);
        const kept = Object.fromEntries(
          (Array.isArray(headers) ? headers : Object.entries(headers)).filter(
            ([k]) => !skip.has(k.toLowerCase()),
          ),
        );
        return refServer({ port: ctx.port(), bytes, headers: kept, status, tmpDir });
      },
      fetchRaw: (p, headers) => rawGet(`${ctx.baseUrl}${p}`, headers),
      server: { pid: server.child.pid, rss: () => server.rss() },
      async restartServer(env = {}) {
        await server.stop();
        server = await startParlons({ port: basePort, dataDir, databaseUrl, env: { ...serverEnv, ...env } });
        ctx.server = { pid: server.child.pid, rss: () => server.rss() };
        // a restart on another process invalidates nothing the figures hold (tokens are signed)
        return server;
      },
    };

    for (const mod of modules.filter((m) => !m.alone)) await runModule(mod, ctx);
    const alone = modules.filter((m) => m.alone);
    if (alone.length) {
      await server.stop();
      server = undefined;
      for (const mod of alone) await runModule(mod, { databaseUrl, tmpDir, log, port: ctx.port });
    }
  }
} finally {
  if (server) await server.stop();
  rmSync(tmpDir, { recursive: true, force: true });
}

const result = {
  date: started.toISOString(),
  commit: `${commit}${dirty}`,
  database: databaseUrl ? "postgres" : "pglite",
  duration,
  node: process.version,
  cpus: os.cpus().length,
  loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100),
  rows,
};
console.log(
  `\nParlons ${result.commit}, ${result.database}, ${duration} s per load, ${result.cpus} CPUs (load average ${result.loadavg.join(" ")}); read the ratios: the load generator shares the machine\n`,
);
console.log(formatTable(rows));
if (!argv.includes("--no-json")) {
  const dir = path.join(root, "bench-results");
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${started.toISOString().replace(/[:.]/g, "-")}-${result.commit}.json`);
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\n${path.relative(process.cwd(), file)}`);
}
