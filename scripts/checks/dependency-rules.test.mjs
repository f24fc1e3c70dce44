// Each rule of .dependency-cruiser.cjs fails on a violation: a few files laid out as in the repo,
// in a temp folder, cruised with the real config; the expected rule (and only it) must fire.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { cruise } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const options = await extractDepcruiseOptions(path.join(root, ".dependency-cruiser.cjs"));

/** Writes `files` (path → source) into a fresh folder and returns the rules that fire. */
async function violations(files) {
  const dir = mkdtempSync(path.join(tmpdir(), "parlons-depcruise-"));
  try {
    copyFileSync(path.join(root, "tsconfig.base.json"), path.join(dir, "tsconfig.base.json"));
    mkdirSync(path.join(dir, "apps/web"), { recursive: true });
    copyFileSync(path.join(root, "apps/web/tsconfig.json"), path.join(dir, "apps/web/tsconfig.json"));
    // the web tsconfig (which carries the @/ alias) needs one file to include
    mkdirSync(path.join(dir, "apps/web/src"), { recursive: true });
    writeFileSync(path.join(dir, "apps/web/src/main.ts"), "export {};\n");
    for (const [file, source] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), source);
    }
    const tsConfig = extractTSConfig(path.join(dir, "apps/web/tsconfig.json"));
    const { output } = await cruise(
      ["apps"],
      { ...options, baseDir: dir, tsConfig: { fileName: path.join(dir, "apps/web/tsconfig.json") } },
      {},
      { tsConfig },
    );
    return [...new Set(output.summary.violations.map((v) => v.rule.name))].sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const table = (name) => `export const ${name} = { id: "${name}" };\n`;

test("an import circle fails, type-only imports included", async () => {
  assert.deepEqual(
    await violations({
      "apps/api/src/lib/a.ts": 'import type { B } from "./b";\nexport type A = { b?: B };\n',
      "apps/api/src/lib/b.ts": 'import type { A } from "./a";\nexport type B = { a?: A };\n',
    }),
    ["no-circular"],
  );
});

test("a module reading another module's table fails; its own table and another's service type pass", async () => {
  const schema = {
    "apps/api/src/db/schema/billing.ts": table("customerPlans"),
    "apps/api/src/db/schema/entitlement.ts": table("grants"),
    "apps/api/src/modules/billing/service.ts":
      'import { customerPlans } from "../../db/schema/billing";\nexport const billing = customerPlans;\n',
  };
  assert.deepEqual(
    await violations({
      ...schema,
      "apps/api/src/modules/entitlement/service.ts":
        'import { customerPlans } from "../../db/schema/billing";\nexport const x = customerPlans;\n',
    }),
    ["module-tables-entitlement"],
  );
  assert.deepEqual(
    await violations({
      ...schema,
      "apps/api/src/modules/entitlement/service.ts":
        'import { grants } from "../../db/schema/entitlement";\nimport type { Billing } from "../billing/service";\nexport const x: [unknown, Billing?] = [grants];\n',
    }),
    [],
  );
});

test("only the audit module touches the audit table", async () => {
  const files = {
    "apps/api/src/db/schema/audit.ts": table("auditLog"),
    "apps/api/src/modules/audit/service.ts":
      'import { auditLog } from "../../db/schema/audit";\nexport const a = auditLog;\n',
  };
  assert.deepEqual(await violations(files), []);
  assert.deepEqual(
    await violations({
      ...files,
      "apps/api/src/plugins/log.ts":
        'import { auditLog } from "../db/schema/audit";\nexport const l = auditLog;\n',
    }),
    ["audit-table-writer"],
  );
});

test("the schema barrel is for the database client only", async () => {
  const files = {
    "apps/api/src/db/schema/plans.ts": table("plans"),
    "apps/api/src/db/schema/index.ts": 'export * from "./plans";\n',
    "apps/api/src/db/client.ts": 'import * as schema from "./schema";\nexport const s = schema;\n',
  };
  assert.deepEqual(await violations(files), []);
  assert.deepEqual(
    await violations({
      ...files,
      "apps/api/src/jobs/sync.ts": 'import { plans } from "../db/schema";\nexport const p = plans;\n',
    }),
    ["no-schema-barrel"],
  );
});

test("another module's routes are not its public surface", async () => {
  assert.deepEqual(
    await violations({
      "apps/api/src/modules/media/routes.ts": "export function upload() {}\n",
      "apps/api/src/modules/lessons/routes.ts":
        'import { upload } from "../media/routes";\nexport const u = upload;\n',
    }),
    ["module-declared-surface", "module-surface"],
  );
});

test("a module reaches another through what it declares: types, policy.ts and queries.ts pass, other code fails", async () => {
  const files = {
    "apps/api/src/modules/users/service.ts":
      "export function createUserService() {}\nexport type UserService = {};\n",
    "apps/api/src/modules/users/policy.ts": "export const canEdit = () => true;\n",
    "apps/api/src/modules/users/queries.ts": "export const userName = 1;\n",
    "apps/api/src/modules/users/index.ts":
      'import { createUserService } from "./service";\nexport default { build: createUserService };\n',
  };
  assert.deepEqual(
    await violations({
      ...files,
      "apps/api/src/modules/events/service.ts":
        'import { canEdit } from "../users/policy";\nimport { userName } from "../users/queries";\nimport type { UserService } from "../users/service";\nexport const e: [unknown, unknown, UserService?] = [canEdit, userName];\n',
    }),
    [],
  );
  assert.deepEqual(
    await violations({
      ...files,
      "apps/api/src/modules/events/service.ts":
        'import { createUserService } from "../users/service";\nexport const e = createUserService;\n',
    }),
    ["module-declared-surface"],
  );
});

test("plugins, lib and db import no module", async () => {
  const files = { "apps/api/src/modules/users/service.ts": "export type Principal = { id: string };\n" };
  for (const from of ["plugins/auth.ts", "lib/errors.ts", "db/seed.ts"])
    assert.deepEqual(
      await violations({
        ...files,
        [`apps/api/src/${from}`]:
          'import type { Principal } from "../modules/users/service";\nexport type P = Principal;\n',
      }),
      ["shared-not-modules"],
      from,
    );
});

test("a web feature importing another feature's page fails, and so does lib/ importing a feature or calling the API", async () => {
  const files = {
    "apps/web/src/features/events/api/events-api.ts": "export const events = 1;\n",
    "apps/web/src/features/events/pages/events-page.tsx":
      'import { events } from "../api/events-api";\nexport const p = events;\n',
  };
  assert.deepEqual(await violations(files), []);
  assert.deepEqual(
    await violations({
      ...files,
      "apps/web/src/features/courses/page.tsx":
        'import { p } from "../events/pages/events-page";\nexport const c = p;\n',
    }),
    ["feature-isolation"],
  );
  // another feature's public face (api/, components/, lib/) is open
  assert.deepEqual(
    await violations({
      ...files,
      "apps/web/src/features/courses/page.tsx":
        'import { events } from "../events/api/events-api";\nexport const c = events;\n',
    }),
    [],
  );
  assert.deepEqual(
    await violations({
      ...files,
      "apps/web/src/features/courses/page.tsx":
        'import { p } from "@/features/events/pages/events-page";\nexport const c = p;\n',
    }),
    ["feature-isolation"],
  );
  assert.deepEqual(
    await violations({
      ...files,
      "apps/web/src/features/courses/page.tsx":
        'import { gone } from "@/lib/gone";\nexport const c = gone;\n',
    }),
    ["web-alias-resolves"],
  );
  assert.deepEqual(
    await violations({
      ...files,
      "apps/web/src/lib/helper.ts":
        'import { events } from "../features/events/api/events-api";\nexport const h = events;\n',
    }),
    ["web-shared-not-features"],
  );
  const client = {
    "apps/web/src/lib/api.ts": "export const api = 1;\n",
    "apps/web/src/lib/api-error.ts": "export const errorText = 1;\n",
  };
  assert.deepEqual(
    await violations({
      ...client,
      "apps/web/src/components/card.tsx":
        'import { errorText } from "@/lib/api-error";\nexport const c = errorText;\n',
    }),
    [],
  );
  assert.deepEqual(
    await violations({
      ...client,
      "apps/web/src/components/card.tsx": 'import { api } from "@/lib/api";\nexport const c = api;\n',
    }),
    ["web-shared-no-api"],
  );
});

test("a web import climbing more than one level fails Biome; one level and the alias pass", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "parlons-biome-"));
  const lint = (source) => {
    const file = path.join(dir, "apps/web/src/features/courses/pages/page.ts");
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, source);
    return spawnSync(path.join(root, "node_modules/.bin/biome"), ["lint", file], {
      cwd: dir,
      encoding: "utf8",
    });
  };
  try {
    copyFileSync(path.join(root, "biome.json"), path.join(dir, "biome.json"));
    const climbing = lint('import { api } from "../../../lib/api";\nexport const a = api;\n');
    assert.notEqual(climbing.status, 0);
    assert.match(climbing.stdout + climbing.stderr, /noRestrictedImports/);
    assert.notEqual(lint('import { x } from "../../x";\nexport const a = x;\n').status, 0);
    const fine = lint(
      'import { api } from "@/lib/api";\nimport { x } from "../x";\nexport const a = [api, x];\n',
    );
    assert.equal(fine.status, 0, fine.stdout + fine.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
