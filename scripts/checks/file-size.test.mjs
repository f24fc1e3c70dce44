// The file-size check (scripts/file-size.mjs) fails on a source file over the limit unless it is
// allowed, and never counts tests.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { MAX_LINES, oversized } from "../file-size.mjs";

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
