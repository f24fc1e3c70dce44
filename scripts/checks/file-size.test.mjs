// The file-size check (scripts/file-size.mjs) fails on a source file over the limit unless it is
// allowed, and never counts tests.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { MAX_LINES, measured, oversized } from "../file-size.mjs";

function tree(files) {
  const dir = mkdtempSync(path.join(tmpdir(), "parlons-file-size-"));
  for (const [file, lines] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), "x;\n".repeat(lines));
  }
  return dir;
}

test("a source file over the limit fails, one at the limit passes, tests are not counted", () => {
  const dir = tree({
    "apps/api/src/modules/a/service.ts": MAX_LINES + 1,
    "apps/api/src/modules/a/routes.ts": MAX_LINES,
    "apps/api/src/modules/a/a.test.ts": MAX_LINES * 2,
    "apps/web/src/features/b/page.tsx": MAX_LINES + 50,
  });
  try {
    const found = oversized(dir, ["apps/api/src", "apps/web/src"], {});
    assert.deepEqual(
      found.map((f) => [f.file, f.lines]),
      [
        ["apps/api/src/modules/a/service.ts", MAX_LINES + 1],
        ["apps/web/src/features/b/page.tsx", MAX_LINES + 50],
      ],
    );
    assert.deepEqual(
      oversized(dir, ["apps/api/src"], { "apps/api/src/modules/a/service.ts": "generated" }),
      [],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("packages, scripts and end-to-end support are measured; specs and build output are not", () => {
  const dir = tree({
    "packages/contract/src/big.ts": MAX_LINES + 1,
    "packages/aligner/test/long.ts": MAX_LINES * 2,
    "scripts/bench/lib/big.mjs": MAX_LINES + 2,
    "e2e/support/big.ts": MAX_LINES + 3,
    "e2e/tests/long.spec.ts": MAX_LINES * 2,
    "apps/api/scripts/seed.ts": MAX_LINES + 4,
    "apps/web/dist/assets/bundle.js": MAX_LINES * 10,
    "apps/web/node_modules/x/index.js": MAX_LINES * 10,
    "docs/api/openapi.d.ts": MAX_LINES * 10,
  });
  try {
    assert.deepEqual(
      oversized(dir, ["apps", "packages", "scripts", "e2e"], {})
        .map((f) => [f.file, f.lines])
        .sort(),
      [
        ["apps/api/scripts/seed.ts", MAX_LINES + 4],
        ["e2e/support/big.ts", MAX_LINES + 3],
        ["packages/contract/src/big.ts", MAX_LINES + 1],
        ["scripts/bench/lib/big.mjs", MAX_LINES + 2],
      ],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the repository's own measured folders are the apps, packages, scripts and e2e", () => {
  assert.deepEqual([...measured].sort(), ["apps", "e2e", "packages", "scripts"]);
});
