#!/usr/bin/env node
/**
 * `npm test`: every suite, in order, then one total line `N passed, N failed, N skipped`.
 *   static     Biome, the file size limit (scripts/file-size.mjs: no source file over 400 lines
 *              outside its allow-list), TypeScript, knip (unused files, exports, dependencies;
 *              knip.jsonc) and dependency-cruiser (.dependency-cruiser.cjs: no import circle,
 *              modules keep to their tables and reach each other through what they declare,
 *              plugins/lib/db import no module, features keep to themselves); not counted as
 *              tests, a failure fails the run
 *   contract   vitest (packages/contract)
 *   aligner    vitest (packages/aligner: the alignment engine, on generated and committed clips)
 *   web        vitest (apps/web)
 *   bench      node:test on the pure parts of `npm run bench` (table, compare; no timing)
 *   checks     node:test proving each dependency rule and the file size limit fail on a violating file (scripts/checks)
 *   api        vitest through inject on PGlite, or PostgreSQL when DATABASE_URL is set
 *   e2e        Playwright in Chromium against the production build (`npm start`)
 * TEST_RESULTS_DIR (default .test-results): where the reports and timings are written.
 * Options: --only=api,e2e (comma list of static, contract, aligner, web, bench, checks, api, e2e), --no-static. CHROMIUM_PATH (default /usr/bin/chromium):
 * without a Chromium the e2e suite is skipped loudly, except with CI=true where it fails.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { recordBuilt, sourcesOf, state, targets } from "./build-state.mjs";
import { printFailedTests } from "./report-failures.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const runStatic = !args.includes("--no-static") && (!only || only.includes("static"));
// where the JSON reports, timings and reasons of failure go (CI gives its PostgreSQL pass, which
// runs beside the end-to-end suite, a folder of its own)
const resultsDir = path.resolve(root, process.env.TEST_RESULTS_DIR ?? ".test-results");
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
/** How long each step took, printed at the end (where a CI log's tail shows it). */
const timings = [];
let stepStart = Date.now();
const timed = (name) => {
  const now = Date.now();
  timings.push(`${name} ${Math.round((now - stepStart) / 1000)}s`);
  stepStart = now;
};
const failures = [];
const want = (name) => !only || only.includes(name);

function sh(cmd, cmdArgs, opts = {}) {
  console.log(`\n\u25b6 ${[cmd, ...cmdArgs].join(" ")}`);
  return (
    spawnSync(cmd, cmdArgs, { cwd: root, stdio: "inherit", ...opts, env: { ...process.env, ...opts.env } })
      .status ?? 1
  );
}

/** Runs a command with its output shown live and kept (for explaining a failure at the end). */
function tee(cmd, cmdArgs, opts = {}) {
  console.log(`\n\u25b6 ${[cmd, ...cmdArgs].join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { cwd: root, ...opts, stdio: ["inherit", "pipe", "pipe"] });
    let output = "";
    const keep = (stream, chunk) => {
      stream.write(chunk);
      output += chunk.toString();
      if (output.length > 4_000_000) output = output.slice(-2_000_000);
    };
    child.stdout.on("data", (c) => keep(process.stdout, c));
    child.stderr.on("data", (c) => keep(process.stderr, c));
    child.on("close", (status) => resolve({ status: status ?? 1, output }));
  });
}

const explanations = [];
// biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal's colour codes
const plain = (text) => text.replace(/\u001b\[[0-9;]*m/g, "");

async function vitestSuite(name, workspace) {
  const out = path.join(resultsDir, `${name}.json`);
  const { status, output } = await tee(
    "npx",
    ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`],
    { cwd: path.join(root, workspace) },
  );
  let counted = false;
  let report;
  if (existsSync(out)) {
    report = JSON.parse(readFileSync(out, "utf8"));
    totals.passed += report.numPassedTests ?? 0;
    totals.failed += report.numFailedTests ?? 0;
    totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    counted = true;
    if ((report.numFailedTests ?? 0) > 0) failures.push(name);
  }
  if (status !== 0 && !failures.includes(name)) {
    failures.push(name);
    if (!counted) totals.failed += 1;
    // No failing test, yet vitest failed: a hook, a file that could not load, or an error thrown
    // outside any test. Said again at the very end, where a CI log's tail shows it.
    const reasons = (report?.testResults ?? [])
      .filter((file) => file.status === "failed" && file.message)
      .map((file) => `${path.relative(root, file.name)}: ${file.message.slice(0, 1500)}`);
    const text = plain(output);
    const at = [/Unhandled (Errors?|Rejection)/, /close timed out/, /Error: /]
      .map((pattern) => text.search(pattern))
      .find((index) => index >= 0);
    if (at !== undefined) reasons.push(text.slice(Math.max(0, at - 200), at + 3000));
    explanations.push(
      `${name}: vitest exited with status ${status} without a failing test.\n${reasons.join("\n") || "(no reason found in its output)"}`,
    );
  }
}

/**
 * Runs the commands two at a time (tsc, knip and dependency-cruiser use one core each), each one's
 * output printed whole when it ends; resolves to the names of those that failed.
 */
async function concurrently(commands, width = 2) {
  const failed = [];
  const queue = [...commands];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const { name, cmd, args, cwd } = next;
      const { status, output } = await new Promise((resolve) => {
        const child = spawn(cmd, args, { cwd: cwd ?? root, stdio: ["ignore", "pipe", "pipe"] });
        let text = "";
        child.stdout.on("data", (c) => {
          text += c;
        });
        child.stderr.on("data", (c) => {
          text += c;
        });
        child.on("close", (code) => resolve({ status: code ?? 1, output: text }));
      });
      console.log(
        `\n\u25b6 ${[cmd, ...args].join(" ")}${cwd ? ` (in ${path.relative(root, cwd)})` : ""}\n${output}`,
      );
      if (status !== 0) failed.push(name);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return failed;
}

if (runStatic) {
  if (sh("npx", ["biome", "check", "."]) !== 0) failures.push("lint");
  if (sh("node", ["scripts/file-size.mjs"]) !== 0) failures.push("file size");
  const typecheck = ["apps/web", "apps/api", "packages/contract", "e2e"].map((dir) => ({
    name: "typecheck",
    cmd: "npx",
    args: ["tsc", "-p", "tsconfig.json"],
    cwd: path.join(root, dir),
  }));
  const failed = await concurrently([
    ...typecheck,
    { name: "knip", cmd: "npx", args: ["knip", "--no-progress"] },
    { name: "dependency rules", cmd: "npm", args: ["run", "depcruise"] },
  ]);
  for (const name of new Set(failed)) failures.push(name);
  timed("static");
}
if (want("contract")) await vitestSuite("contract", "packages/contract");
if (want("aligner")) await vitestSuite("aligner", "packages/aligner");
if (want("web")) await vitestSuite("web", "apps/web");
if (want("contract") || want("aligner") || want("web")) timed("contract+aligner+web");
function nodeTestSuite(name, glob) {
  const out = spawnSync(process.execPath, ["--test", "--test-reporter=tap", glob], {
    cwd: root,
    encoding: "utf8",
  });
  console.log(
    `\n\u25b6 node --test ${glob}\n${out.stdout
      .split("\n")
      .filter((l) => /^(not )?ok |^# (pass|fail)/.test(l))
      .join("\n")}`,
  );
  const count = (key) => Number(new RegExp(`^# ${key} (\\d+)`, "m").exec(out.stdout)?.[1] ?? 0);
  totals.passed += count("pass");
  totals.failed += count("fail");
  totals.skipped += count("skipped");
  if (out.status !== 0) {
    failures.push(name);
    if (count("fail") === 0) totals.failed += 1;
  }
}

if (want("bench")) nodeTestSuite("bench", "scripts/bench/**/*.test.mjs");
if (want("checks")) nodeTestSuite("checks", "scripts/checks/**/*.test.mjs");
// One production build, before the API suite (its server-render tests use the real web build)
// and the e2e suite (which runs `npm start` on it).
// A target whose sources have not changed since its last build is not built again (the API suite
// on PostgreSQL, right after the whole suite, reuses that build: a minute saved in CI).
function buildStale() {
  for (const [name, target] of Object.entries(targets)) {
    const why = state(root, target);
    if (why === "fresh") {
      console.log(`\n▶ ${name} build is up to date`);
      continue;
    }
    const { fingerprint } = sourcesOf(root, target);
    if (sh("npm", ["run", "build", "-w", target.workspace]) !== 0) return false;
    recordBuilt(root, target, fingerprint);
  }
  return true;
}
if (want("bench") || want("checks")) timed("bench+checks");
if ((want("api") || want("e2e")) && !buildStale()) failures.push("build");
if (want("api") || want("e2e")) timed("build");
if (want("api")) await vitestSuite(process.env.DATABASE_URL ? "api-postgres" : "api", "apps/api");
if (want("api")) timed(process.env.DATABASE_URL ? "api-postgres" : "api");

if (want("e2e")) {
  const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(chromium)) {
    const banner = "!".repeat(72);
    console.log(
      `\n${banner}\n!! e2e SKIPPED: no Chromium at ${chromium} (set CHROMIUM_PATH or apt-get install chromium)\n${banner}`,
    );
    if (process.env.CI === "true") {
      failures.push("e2e (no Chromium)");
      totals.failed += 1;
    } else totals.skipped += 1;
  } else {
    const out = path.join(resultsDir, "e2e.json");
    const status = sh("npx", ["playwright", "test"], {
      cwd: path.join(root, "e2e"),
      env: { CHROMIUM_PATH: chromium, PLAYWRIGHT_JSON_OUTPUT_NAME: out },
    });
    if (existsSync(out)) {
      const { stats } = JSON.parse(readFileSync(out, "utf8"));
      totals.passed += stats.expected ?? 0;
      totals.failed += (stats.unexpected ?? 0) + (stats.flaky ?? 0);
      totals.skipped += stats.skipped ?? 0;
    } else if (status !== 0) totals.failed += 1;
    if (status !== 0) failures.push("e2e");
  }
}

if (want("e2e")) timed("e2e");

printFailedTests(
  ["contract", "web", "api", "api-postgres", "e2e"]
    .map((name) => path.join(resultsDir, `${name}.json`))
    .filter((file) => existsSync(file)),
  root,
);
for (const text of explanations) console.log(`\n!! ${text}`);
if (failures.length) console.log(`\nFailed: ${failures.join(", ")}`);
// Kept for CI, which prints it again after its last suite.
if (failures.length)
  writeFileSync(
    path.join(resultsDir, "why.txt"),
    [`Failed: ${failures.join(", ")}`, ...explanations.map((text) => `!! ${text}`)].join("\n"),
  );
console.log(`\nTimings: ${timings.join(", ")}`);
writeFileSync(path.join(resultsDir, "timings.txt"), timings.join(", "));
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length ? 1 : 0);
