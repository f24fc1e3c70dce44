// Bundles the API (and the contract package's TypeScript source) into dist/server.js, then makes
// dist/pglite-template: a migrated, empty PGlite data folder that a first start copies instead of
// running initdb and the migrations. npm packages stay external: they are installed next to it.
import { rmSync } from "node:fs";
import { build } from "esbuild";

const common = {
  bundle: true,
  platform: "node",
  target: "node22",
  format: "esm",
  sourcemap: true,
  packages: "external",
  // The contract is workspace TypeScript source: bundle it instead of importing it at run time.
  plugins: [
    {
      name: "bundle-contract",
      setup(b) {
        b.onResolve({ filter: /^@parlons\/contract$/ }, () => ({
          path: new URL("../../packages/contract/src/index.ts", import.meta.url).pathname,
        }));
      },
    },
  ],
  logLevel: "warning",
};

await build({ ...common, entryPoints: ["src/server.ts"], outfile: "dist/server.js" });

const templateScript = new URL("dist/.make-template.js", import.meta.url);
await build({
  ...common,
  sourcemap: false,
  entryPoints: ["src/db/make-template.ts"],
  outfile: templateScript.pathname,
});
try {
  const { makePgliteTemplate } = await import(templateScript.href);
  await makePgliteTemplate(new URL("dist/pglite-template", import.meta.url).pathname);
} finally {
  rmSync(templateScript, { force: true });
}
