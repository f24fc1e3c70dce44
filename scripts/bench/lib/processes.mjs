// Child processes of the benchmark: the Parlons server (started as `npm start` starts it),
// the raw node:http reference, autocannon. Each runs in its own process group so that
// stopping it stops its children too.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const here = path.dirname(fileURLToPath(import.meta.url));
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A process and all its descendants, from /proc: [{ pid, rss (bytes), command }]. */
export function processTree(pid) {
  const parents = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // the process ended while we were looking
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) {
    for (const [child, ppid] of parents) if (ppid === tree[i]) tree.push(child);
  }
  const out = [];
  for (const p of tree) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, "utf8"));
      const command = readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
      out.push({ pid: p, rss: m ? Number(m[1]) * 1024 : 0, command });
    } catch {
      // ended
    }
  }
  return out;
}

/** Resident memory (bytes) of a process and all its descendants. */
const treeRss = (pid) => processTree(pid).reduce((sum, p) => sum + p.rss, 0);

/** Whether any process of the group `pgid` is still alive. */
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops a process group started by us (detached), then waits until every process of it has
 * exited: `npm` leaves before the server it started has closed its database, and the next start
 * on the same DATA_DIR would find that server's lock.
 */
export async function stopGroup(child, timeoutMs = 10_000) {
  if (!groupAlive(child.pid)) return;
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const deadline = Date.now() + timeoutMs;
  while (groupAlive(child.pid) && Date.now() < deadline) await sleep(100);
  if (groupAlive(child.pid)) {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // already gone
    }
    while (groupAlive(child.pid)) await sleep(100);
  }
}

/** Polls `url` until it answers 200; returns the milliseconds since `since`. */
async function waitFor200(url, { since = performance.now(), timeoutMs = 120_000, child } = {}) {
  const deadline = since + timeoutMs;
  while (performance.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`the server exited (code ${child.exitCode})`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - since;
    } catch {
      // not listening yet
    }
    await sleep(20);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
}

/**
 * Starts Parlons the way `npm start` does (scripts/start.mjs: builds what is missing, then
 * runs the API bundle with NODE_ENV=production). `command` "npm" runs `npm start` itself.
 * Returns { child, url, ms (spawn to first 200 on /api/health), rss(), stop(), output() }.
 */
export async function startParlons({
  port,
  dataDir,
  databaseUrl,
  env = {},
  command = "node",
  timeoutMs,
} = {}) {
  const args = command === "npm" ? ["start"] : [path.join(root, "scripts/start.mjs")];
  const bin = command === "npm" ? "npm" : process.execPath;
  let output = "";
  const since = performance.now();
  const child = spawn(bin, args, {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? "",
      LOG_LEVEL: "warn",
      ...env,
    },
  });
  const keep = (chunk) => {
    output = (output + chunk).slice(-20_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  const url = `http://127.0.0.1:${port}`;
  try {
    const ms = await waitFor200(`${url}/api/health`, { since, child, timeoutMs });
    return {
      child,
      url,
      ms,
      rss: () => treeRss(child.pid),
      stop: () => stopGroup(child),
      output: () => output,
    };
  } catch (err) {
    await stopGroup(child);
    throw new Error(`${err.message}\n--- server output ---\n${output}`);
  }
}

/** Runs a node script in its own process; resolves with its stdout. */
function runNode(script, args, { onLine } = {}) {
  const child = spawn(process.execPath, [script, ...args], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => {
    out += d;
    if (onLine) for (const line of String(d).split("\n")) if (line) onLine(line, child);
  });
  child.stderr.on("data", (d) => {
    err += d;
  });
  const done = new Promise((resolve, reject) =>
    child.once("exit", (code) =>
      code === 0 || code === null
        ? resolve(out)
        : reject(new Error(`${path.basename(script)} exited ${code}: ${err}`)),
    ),
  );
  return { child, done };
}

/** autocannon in a child process; see load-child.mjs for the options. */
export async function load(opts) {
  const { done } = runNode(path.join(here, "load-child.mjs"), [JSON.stringify(opts)]);
  const out = await done;
  return JSON.parse(out.trim().split("\n").pop());
}

/** A raw node:http server (own process) answering `bytes` with `headers`; { url, stop() }. */
export async function refServer({ port, bytes, headers, status = 200, tmpDir }) {
  const file = path.join(tmpDir, `ref-${port}.json`);
  writeFileSync(file, JSON.stringify({ port, status, headers, body: Buffer.from(bytes).toString("base64") }));
  let ready;
  const isReady = new Promise((resolve) => {
    ready = resolve;
  });
  const { child, done } = runNode(path.join(here, "ref-server-child.mjs"), [file], {
    onLine: (line) => line === "ready" && ready(),
  });
  await Promise.race([isReady, done.then(() => Promise.reject(new Error("reference server exited")))]);
  return { url: `http://127.0.0.1:${port}`, stop: () => stopGroup(child) };
}

/** One GET with node:http (no Accept-Encoding, like autocannon): { status, headers, body } undecoded. */
export function rawGet(url, headers = {}, timeoutMs = 180_000) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode,
          headers: Object.entries(res.headers),
          body: Buffer.concat(chunks),
        }),
      );
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${url}: no answer within ${timeoutMs / 1000} s`)));
    req.on("error", reject);
  });
}
