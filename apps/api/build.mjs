// Bundles the API (and the contract package's TypeScript source) into dist/server.js.
// npm packages stay external: they are installed next to it.
import { build } from "esbuild";

await build({
  entryPoints: ["src/server.ts"],
  outfile: "dist/server.js",
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
});
