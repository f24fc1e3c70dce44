#!/usr/bin/env node
/**
 * No application source file over 400 lines (issue 27): a file that long holds more than one
 * thing, split it into cohesive parts. Tests are not counted. The only exceptions are listed
 * below, each with its reason: protocol clients, generated files, and splits still pending.
 * `npm test` runs it in its static step; `node scripts/file-size.mjs` alone prints the offenders.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const MAX_LINES = 400;

/** Folders whose sources are measured. */
export const measured = ["apps/api/src", "apps/web/src"];

/** Files allowed over the limit, with why. */
export const allowed = {};

const isSource = (name) =>
  /\.(ts|tsx|mjs|js)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts");

function* sources(root, dir) {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && entry.name !== "test") yield* sources(root, rel);
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
