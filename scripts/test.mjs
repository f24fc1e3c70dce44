#!/usr/bin/env node
/**
 * `npm test`: every suite, in order, then one total line `N passed, N failed, N skipped`.
 *   static     Biome and TypeScript (not counted as tests; a failure fails the run)
 *   contract   vitest (packages/contract)
 *   web        vitest (apps/web)
 *   bench      node:test on the pure parts of `npm run bench` (table, compare; no timing)
 *   api        vitest through inject on PGlite, or PostgreSQL when DATABASE_URL is set
 *   e2e        Playwright in Chromium against the production build (`npm start`)
 * Options: --only=api,e2e (comma list of contract, web, bench, api, e2e), --no-static. CHROMIUM_PATH (default /usr/bin/chromium):
 * without a Chromium the e2e suite is skipped loudly, except with CI=true where it fails.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const only = args
  .find((a) => a.startsWith("--only="))
  ?.slice(7)
  .split(",");
const runStatic = !args.includes("--no-static") && !only;
const resultsDir = path.join(root, ".test-results");
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const failures = [];
const want = (name) => !only || only.includes(name);

function sh(cmd, cmdArgs, opts = {}) {
  console.log(`\n\u25b6 ${[cmd, ...cmdArgs].join(" ")}`);
  return (
    spawnSync(cmd, cmdArgs, { cwd: root, stdio: "inherit", ...opts, env: { ...process.env, ...opts.env } })
      .status ?? 1
  );
}

function vitestSuite(name, workspace) {
  const out = path.join(resultsDir, `${name}.json`);
  const status = sh(
    "npx",
    ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${out}`],
    {
      cwd: path.join(root, workspace),
    },
  );
  let counted = false;
  if (existsSync(out)) {
    const report = JSON.parse(readFileSync(out, "utf8"));
    totals.passed += report.numPassedTests ?? 0;
    totals.failed += report.numFailedTests ?? 0;
    totals.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    counted = true;
    if ((report.numFailedTests ?? 0) > 0) failures.push(name);
  }
  if (status !== 0 && !failures.includes(name)) {
    failures.push(name);
    if (!counted) totals.failed += 1;
  }
}

if (runStatic) {
  if (sh("npx", ["biome", "check", "."]) !== 0) failures.push("lint");
  if (sh("npm", ["run", "typecheck"]) !== 0) failures.push("typecheck");
}
if (want("contract")) vitestSuite("contract", "packages/contract");
if (want("web")) vitestSuite("web", "apps/web");
if (want("bench")) {
  const out = spawnSync(process.execPath, ["--test", "--test-reporter=tap", "scripts/bench/**/*.test.mjs"], {
    cwd: root,
    encoding: "utf8",
  });
  console.log(
    `\n\u25b6 node --test scripts/bench\n${out.stdout
      .split("\n")
      .filter((l) => /^(not )?ok |^# (pass|fail)/.test(l))
      .join("\n")}`,
  );
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)`, "m").exec(out.stdout)?.[1] ?? 0);
  totals.passed += count("pass");
  totals.failed += count("fail");
  totals.skipped += count("skipped");
  if (out.status !== 0) {
    failures.push("bench");
    if (count("fail") === 0) totals.failed += 1;
  }
}
// One production build, before the API suite (its server-render tests use the real web build)
// and the e2e suite (which runs `npm start` on it).
if ((want("api") || want("e2e")) && sh("npm", ["run", "build"]) !== 0) failures.push("build");
if (want("api")) vitestSuite(process.env.DATABASE_URL ? "api-postgres" : "api", "apps/api");

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

if (failures.length) console.log(`\nFailed: ${failures.join(", ")}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failures.length ? 1 : 0);
