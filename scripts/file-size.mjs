#!/usr/bin/env node
/**
 * No source file over 400 lines (issue 27): a file that long holds more than one thing, split
 * it into cohesive parts. Measured: the apps (sources, build and maintenance scripts), the
 * packages, the repository's scripts and the end-to-end support code. Tests are not counted
 * (`*.test.*`, `*.spec.*`, `test/` folders), nor what a build writes. The only exceptions are
 * listed below, each with its reason: protocol clients and generated files.
 * `npm test` runs it in its static step; `node scripts/file-size.mjs` alone prints the offenders.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const MAX_LINES = 400;

/** Folders whose sources are measured, every level below them. */
export const measured = ["apps", "packages", "scripts", "e2e"];

/**
 * Files allowed over the limit, with why: only a protocol client (one provider's API that
 * cannot be cut without cutting a request from its shapes) or a generated file. None today:
 * the PayPal client is split into its shared request code, subscriptions and orders, and the
 * generated OpenAPI types (docs/api/openapi.d.ts) are declarations, which are not measured.
 */
export const allowed = {};

/** Folders never measured: tests, dependencies, and what builds, runs and benchmarks write. */
const skipped = new Set([
  "node_modules",
  "test",
  "dist",
  "dist-server",
  "data",
  "coverage",
  "test-results",
  "playwright-report",
  "bench-results",
  ".cache",
]);

const isSource = (name) =>
  /\.(ts|tsx|mts|cts|mjs|cjs|js|jsx)$/.test(name) &&
  !/\.(test|spec)\.[cm]?[jt]sx?$/.test(name) &&
  !/\.d\.[cm]?ts$/.test(name);

function* sources(root, dir) {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipped.has(entry.name)) yield* sources(root, rel);
    } else if (isSource(entry.name)) yield rel;
  }
}

const linesOf = (text) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

/** The measured files over the limit and not allowed, with their line counts. */
export function oversized(root, folders = measured, allow = allowed) {
  const found = [];
  for (const folder of folders)
    for (const file of sources(root, folder)) {
      const lines = linesOf(readFileSync(path.join(root, file), "utf8"));
      if (lines > MAX_LINES && !(file in allow)) found.push({ file, lines });
    }
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const found = oversized(root);
  for (const { file, lines } of found)
    console.error(`${file}: ${lines} lines (at most ${MAX_LINES}: split it into cohesive parts)`);
  const stale = Object.keys(allowed).filter((file) => {
    try {
      return linesOf(readFileSync(path.join(root, file), "utf8")) <= MAX_LINES;
    } catch {
      return true;
    }
  });
  for (const file of stale)
    console.error(
      `${file}: allowed over ${MAX_LINES} lines but no longer is: drop it from scripts/file-size.mjs`,
    );
  if (found.length || stale.length) process.exit(1);
  console.log(
    `file size: every source file within ${MAX_LINES} lines (${Object.keys(allowed).length} allowed exceptions)`,
  );
}
