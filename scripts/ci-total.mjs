/**
 * CI's last lines: the failed tests named (scripts/report-failures.mjs), then the total of every
 * suite's JSON report in <dir> as `N passed, N failed, N skipped`. A Playwright test that passed
 * only on a retry counts as failed. <failedRuns>: suites that exited non-zero; when no test is
 * counted as failed, they are. An API test skipped in both runs (embedded and PostgreSQL) counts as
 * failed: each runs in one run or the other (PostgreSQL-only, PGlite-only), and one that runs in
 * neither (a service CI should have started) proves nothing.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { printFailedTests } from "./report-failures.mjs";

const [dir, failedRunsArg] = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => path.join(dir, f));
const t = { passed: 0, failed: 0, skipped: 0 };
for (const file of files) {
  const r = JSON.parse(readFileSync(file, "utf8"));
  if (r.stats) {
    t.passed += r.stats.expected || 0;
    t.failed += (r.stats.unexpected || 0) + (r.stats.flaky || 0);
    t.skipped += r.stats.skipped || 0;
  } else {
    t.passed += r.numPassedTests || 0;
    t.failed += r.numFailedTests || 0;
    t.skipped += (r.numPendingTests || 0) + (r.numTodoTests || 0);
  }
  console.log(`  ${path.basename(file)}`);
}
printFailedTests(files);
for (const why of readdirSync(dir).filter((f) => /^why-.*\.txt$/.test(f)))
  console.log(`\n[${why.slice(4, -4)} run] ${readFileSync(path.join(dir, why), "utf8").slice(0, 6000)}`);
/** Tests (file › name) skipped in both API runs. */
function skippedInBoth(embedded, postgres) {
  const skipped = (file) => {
    const names = new Set();
    for (const result of JSON.parse(readFileSync(file, "utf8")).testResults ?? [])
      for (const test of result.assertionResults ?? [])
        if (["skipped", "pending", "todo"].includes(test.status))
          names.add(`${path.relative(process.cwd(), result.name)} › ${test.fullName}`);
    return names;
  };
  const other = skipped(postgres);
  return [...skipped(embedded)].filter((name) => other.has(name));
}
const apiRuns = ["api.json", "api-postgres.json"].map((f) => path.join(dir, f));
if (apiRuns.every((f) => existsSync(f))) {
  const neither = skippedInBoth(...apiRuns);
  if (neither.length) {
    console.log(
      `\n!! ${neither.length} API test(s) ran in neither run (skipped on PGlite and on PostgreSQL):`,
    );
    for (const name of neither) console.log(`  ${name}`);
    t.failed += neither.length;
    t.skipped -= 2 * neither.length;
  }
}
const failedRuns = Number(failedRunsArg ?? 0);
if (failedRuns && t.failed === 0) t.failed = failedRuns;
console.log(`${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
process.exitCode = t.failed > 0 ? 1 : 0;
