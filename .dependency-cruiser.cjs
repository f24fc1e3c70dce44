// Dependency rules checked by `npm test` (static step): `npx depcruise --config .dependency-cruiser.cjs`.
// Why these rooms: docs/decisions.md, "Modules and features keep to their own rooms".
const { readdirSync } = require("node:fs");
const path = require("node:path");

const api = "^apps/api/src";
const web = "^apps/web/src";
const tests = "(\\.test\\.tsx?$|^apps/api/test/)";
const modules = readdirSync(path.join(__dirname, "apps/api/src/modules"));

/**
 * Tables a module reads besides its own (apps/api/src/db/schema/<module>.ts). A module that needs
 * another's rows in its own query joins what that module publishes in its queries.ts
 * (roles/queries.ts, plans/queries.ts, users/queries.ts); writes stay in the owner's service.
 * One deliberate exception, below, with its reason.
 */
const sharedTables = {
  // "Where you are signed in" lists, ends and dates the rows of auth's `sessions` table for their
  // own learner: a room apart, so that the sign-in code of auth stays as it is (docs/decisions.md,
  // "Sessions people can see"); ending a session is told on the change bus as auth's revocations are.
  "device-sessions": ["auth"],
  // Staff analytics roll up what every learning and billing module wrote (its job only; its page
  // reads its own tables): one reader rather than a counter in each of them.
  analytics: ["billing", "courses", "events", "habit", "lessons", "plans", "review"],
  // The learner's data rights (export, erasure) must see every row a learner has, in one place, or
  // one is forgotten: its schema-walk test fails when a table with a user column is not covered.
  privacy: [
    "analytics",
    "auth",
    "billing",
    "certificates",
    "events",
    "habit",
    "lessons",
    "mail",
    "notifications",
    "podcast",
    "practice",
    "push",
    "review",
    "users",
  ],
};

function tablesRule(m) {
  const own = [m, "columns", ...(sharedTables[m] ?? [])].join("|");
  return {
    name: `module-tables-${m}`,
    comment: `modules/${m} touches only its own tables (db/schema/${m}.ts); for another module's data it asks that module's service`,
    severity: "error",
    from: { path: `${api}/modules/${m}/`, pathNot: tests },
    to: { path: `${api}/db/schema/`, pathNot: `${api}/db/schema/(${own})\\.ts$` },
  };
}

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "no import circle, type-only imports included",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...modules.map(tablesRule),
    {
      name: "audit-table-writer",
      comment: "the audit module is the only code that touches the audit table",
      severity: "error",
      from: { pathNot: [`${api}/modules/audit/`, `${api}/db/schema/index\\.ts$`, tests] },
      to: { path: `${api}/db/schema/audit\\.ts$` },
    },
    {
      name: "no-schema-barrel",
      comment:
        "db/schema/index.ts (every table) is for the database client; code names the table file it uses, so the rules above see it",
      severity: "error",
      from: { path: api, pathNot: [`${api}/db/client\\.ts$`, tests] },
      to: { path: `${api}/db/schema/index\\.ts$` },
    },
    {
      name: "module-surface",
      comment:
        "another module is reached through its services and policies, never its routes (the HTTP face) or demo seeds",
      severity: "error",
      from: { path: `${api}/modules/([^/]+)/`, pathNot: tests },
      to: {
        path: `${api}/modules/([^/]+)/(routes|seed-demo)\\.ts$`,
        pathNot: `${api}/modules/$1/`,
      },
    },
    {
      name: "shared-not-modules",
      comment:
        "plugins/, lib/ and db/ serve every module, so they never import one (shared pieces live there; a module reaches them, never the reverse)",
      severity: "error",
      from: { path: `${api}/(plugins|lib|db)/`, pathNot: tests },
      to: { path: `${api}/modules/` },
    },
    {
      name: "module-declared-surface",
      comment:
        "a module reaches another only through what it declares: its services come in `needs` (modules/<m>/index.ts), so an import is of types only, or of the rules and joins it publishes (policy.ts, queries.ts)",
      severity: "error",
      from: { path: `${api}/modules/([^/]+)/`, pathNot: tests },
      to: {
        path: `${api}/modules/`,
        pathNot: [`${api}/modules/$1/`, `${api}/modules/[^/]+/(policy|queries)\\.ts$`],
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "feature-isolation",
      comment:
        "a web feature uses another only through its public faces: api/ (reads, query keys, mutations), components/ (widgets) and lib/ (pure helpers); never its pages or hooks",
      severity: "error",
      from: { path: `${web}/features/([^/]+)/` },
      to: {
        path: `${web}/features/([^/]+)/`,
        pathNot: [`${web}/features/$1/`, `${web}/features/[^/]+/(api|components|lib)/`],
      },
    },
    {
      name: "web-alias-resolves",
      comment: "an @/ import that does not resolve would escape every rule above",
      severity: "error",
      from: { path: web },
      to: { couldNotResolve: true, path: "^@/" },
    },
    {
      name: "web-shared-not-features",
      comment:
        "the shared folders (components/, lib/, hooks/) are below the features, so they never depend on one",
      severity: "error",
      from: { path: `${web}/(components|lib|hooks)/` },
      to: { path: `${web}/features/` },
    },
    {
      name: "web-shared-no-api",
      comment:
        "the shared folders hold nothing of a domain, so they never call the API: only the client itself (lib/api.ts, its session and upload transport) does; errors are read from lib/api-error.ts",
      severity: "error",
      from: {
        path: `${web}/(components|lib|hooks)/`,
        pathNot: [`${web}/lib/(api|session|upload)\\.ts$`, tests],
      },
      to: { path: `${web}/lib/api\\.ts$` },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|dist-server)/" },
    tsPreCompilationDeps: true,
    // the web tsconfig carries the @/ alias; relative imports resolve the same everywhere
    tsConfig: { fileName: "apps/web/tsconfig.json" },
  },
};
