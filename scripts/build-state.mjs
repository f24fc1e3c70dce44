// Whether the built web app and API bundle match their sources, without building anything.
// A target's fingerprint is a hash of the path, size and mtime of each of its source files
// (a few hundred stat calls: milliseconds). `npm start` keeps the fingerprint of the sources it
// last saw built next to the output. A build is fresh when that fingerprint still matches, or
// when the output is newer than every source file and folder (a folder's mtime moves when a file
// in it is added, deleted or renamed): a tree built by `npm run build` directly is not built again.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const SKIP = new Set(["node_modules", "dist", "dist-server", ".turbo", "coverage", "test-results"]);

/** What each build reads and writes, relative to the repository's root. */
export const targets = {
  web: {
    inputs: ["apps/web", "packages/contract/src", "package-lock.json"],
    // the server renderer is written last: present and newer than the sources means a whole build
    output: "apps/web/dist-server/entry-server.js",
    stamp: "apps/web/dist/.sources",
    workspace: "@parlons/web",
  },
  api: {
    inputs: [
      "apps/api/src",
      "apps/api/drizzle",
      "apps/api/build.mjs",
      "apps/api/package.json",
      "packages/contract/src",
      "package-lock.json",
    ],
    output: "apps/api/dist/server.js",
    stamp: "apps/api/dist/.sources",
    workspace: "@parlons/api",
  },
};

function walk(file, out) {
  let st;
  try {
    st = statSync(file);
  } catch {
    return;
  }
  if (st.isDirectory()) {
    out.push({ file, size: 0, mtime: st.mtimeMs, dir: true });
    for (const name of readdirSync(file).sort()) if (!SKIP.has(name)) walk(path.join(file, name), out);
  } else {
    out.push({ file, size: st.size, mtime: st.mtimeMs });
  }
}

/** The fingerprint of a target's sources and the newest source mtime. */
export function sourcesOf(root, target) {
  const files = [];
  for (const input of target.inputs) walk(path.join(root, input), files);
  const hash = createHash("sha256");
  let newest = 0;
  for (const f of files) {
    if (!f.dir) hash.update(`${path.relative(root, f.file)}\0${f.size}\0${f.mtime}\n`);
    if (f.mtime > newest) newest = f.mtime;
  }
  return { fingerprint: hash.digest("hex"), newest };
}

/** "fresh", or why the target must be built ("missing", "stale"); records the fingerprint of a fresh build. */
export function state(root, target) {
  const output = path.join(root, target.output);
  if (!existsSync(output) || statSync(output).size === 0) return "missing";
  const { fingerprint, newest } = sourcesOf(root, target);
  const stampFile = path.join(root, target.stamp);
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8").trim() === fingerprint) return "fresh";
  if (statSync(output).mtimeMs < newest) return "stale";
  writeFileSync(stampFile, fingerprint);
  return "fresh";
}

/** After a successful build: the sources it was built from. */
export function recordBuilt(root, target, fingerprint) {
  writeFileSync(path.join(root, target.stamp), fingerprint);
}
