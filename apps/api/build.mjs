// Bundles the API (and the contract package's TypeScript source) into dist/server.js, then makes
// dist/pglite-template: a migrated, empty PGlite data folder that a first start copies instead of
// running initdb and the migrations. npm packages stay external: they are installed next to it.
import { rmSync } from "node:fs";
import { build } from "esbuild";

/**
 * npm packages bundled into server.js rather than loaded from node_modules at run time. Node's
 * ESM loader reads the nearest package.json of every file it resolves, and parses its `exports`
 * again each time: drizzle-orm's is 179 KB, for ~110 files loaded, ~350 ms of CPU per start.
 * jose: 46 small ES modules, one file once bundled.
 */
const BUNDLED = new Set(["drizzle-orm", "jose"]);

const common = {
  bundle: true,
  platform: "node",
  target: "node22",
  format: "esm",
  sourcemap: true,
  // The contract is workspace TypeScript source: bundle it instead of importing it at run time.
  plugins: [
    {
      name: "bundle-contract",
      setup(b) {
        b.onResolve({ filter: /^@parlons\/contract$/ }, () => ({
          path: new URL("../../packages/contract/src/index.ts", import.meta.url).pathname,
        }));
        // the aligner's entries the server imports (its worker thread is bundled apart, below)
        b.onResolve({ filter: /^@parlons\/aligner\/(run-in-worker|run-session|script)$/ }, (args) => ({
          path: new URL(`../../packages/aligner/src/${args.path.split("/")[2]}.ts`, import.meta.url).pathname,
        }));
      },
    },
    {
      // drizzle's node-postgres driver, bundled, would make `pg` a static import of server.js,
      // loaded at every start (~35 files) even on PGlite: it gets `pg` on first use instead
      name: "pg-on-first-use",
      setup(b) {
        b.onResolve({ filter: /^pg$/ }, (args) =>
          args.importer.includes("/node_modules/drizzle-orm/")
            ? { path: "pg", namespace: "pg-on-first-use" }
            : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: "pg-on-first-use" }, () => ({
          contents: `import { createRequire } from "node:module";
let pg;
const load = () => (pg ??= createRequire(import.meta.url)("pg"));
export default new Proxy({}, { get: (_target, key) => load()[key] });`,
          loader: "js",
        }));
      },
    },
    {
      name: "external-packages",
      setup(b) {
        // a bare specifier (not relative, not absolute, not node:) is an npm package
        b.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path.startsWith("node:")) return { external: true };
          const name = args.path.startsWith("@")
            ? args.path.split("/").slice(0, 2).join("/")
            : args.path.split("/")[0];
          return BUNDLED.has(name) ? undefined : { external: true };
        });
      },
    },
  ],
  logLevel: "warning",
};

await build({ ...common, entryPoints: ["src/server.ts"], outfile: "dist/server.js" });
// the lesson aligner's worker thread (modules/alignment starts it from dist/align-worker.js)
await build({
  ...common,
  entryPoints: ["../../packages/aligner/src/worker.ts"],
  outfile: "dist/align-worker.js",
});
// the hands-free session's renderer (modules/practice starts it from dist/session-worker.js)
await build({
  ...common,
  entryPoints: ["../../packages/aligner/src/session-worker.ts"],
  outfile: "dist/session-worker.js",
});
// npm run backup, restore, migrate-to-postgres
await build({ ...common, entryPoints: ["src/ops/cli.ts"], outfile: "dist/ops.js" });

const templateScript = new URL("dist/.make-template.js", import.meta.url);
await build({
  ...common,
  sourcemap: false,
  entryPoints: ["src/make-template.ts"],
  outfile: templateScript.pathname,
});
try {
  const { makePgliteTemplate } = await import(templateScript.href);
  await makePgliteTemplate(new URL("dist/pglite-template", import.meta.url).pathname);
} finally {
  rmSync(templateScript, { force: true });
}
