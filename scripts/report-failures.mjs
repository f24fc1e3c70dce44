/**
 * Names every failed test in the JSON reports of vitest and Playwright, with the first lines of
 * its error: printed at the end of `npm test` and of CI, where a log's tail shows it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

// biome-ignore lint/suspicious/noControlCharactersInRegex: strips the terminal's colour codes
const plain = (text) => String(text ?? "").replace(/\u001b\[[0-9;]*m/g, "");
const firstLines = (text, n = 6) =>
  plain(text)
    .split("\n")
    .filter((line) => line.trim() && !/^\s*at /.test(line))
    .slice(0, n)
    .map((line) => `      ${line.slice(0, 300)}`)
    .join("\n");

function fromVitest(report, root) {
  const out = [];
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== "failed") continue;
      out.push(
        `${path.relative(root, file.name)} > ${test.fullName ?? test.title}\n${firstLines((test.failureMessages ?? []).join("\n"))}`,
      );
    }
  }
  return out;
}

function fromPlaywright(report) {
  const out = [];
  const walk = (suite, trail) => {
    for (const child of suite.suites ?? []) walk(child, [...trail, child.title]);
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== "unexpected" && test.status !== "flaky") continue;
        const errors = (test.results ?? []).flatMap((r) => r.errors ?? (r.error ? [r.error] : []));
        const tries = (test.results ?? []).map((r) => r.status).join(", ");
        out.push(
          `${spec.file}:${spec.line} > ${[...trail.slice(1), spec.title].join(" > ")} [${test.projectName}; ${test.status}: ${tries}]\n${firstLines(errors.map((e) => e.message ?? e.stack ?? "").join("\n"))}`,
        );
      }
    }
  };
  for (const suite of report.suites ?? []) walk(suite, [suite.title]);
  return out;
}

/** Lines naming the failed tests of one report file (empty when none failed or it is unreadable). */
export function failedTests(file, root = process.cwd()) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return [];
  }
  return report.stats ? fromPlaywright(report) : fromVitest(report, root);
}

/** Prints them under one heading; says nothing when every test passed. */
export function printFailedTests(files, root = process.cwd()) {
  const lines = files.flatMap((file) =>
    failedTests(file, root).map((line) => `  [${path.basename(file, ".json")}] ${line}`),
  );
  if (lines.length) console.log(`\nFailed tests:\n${lines.join("\n")}`);
}
