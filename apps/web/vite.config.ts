import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { VitePWA } from "vite-plugin-pwa";
import { defineConfig } from "vitest/config";
import { chunkGroups } from "./build/chunk-groups";
import { precompress } from "./build/precompress";
import { publicTexts } from "./build/public-texts";
import { localeManifests, webManifest } from "./build/web-manifest";

const apiTarget = process.env.API_PROXY_TARGET ?? "http://localhost:3000";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    publicTexts(fileURLToPath(new URL("src/locales", import.meta.url))),
    // the browser build only: the installable app and its service worker (src/sw.ts)
    !isSsrBuild &&
      VitePWA({
        strategies: "injectManifest",
        srcDir: "src",
        filename: "sw.ts",
        // a new version waits for the learner's "reload" (components/update-prompt.tsx)
        registerType: "prompt",
        injectRegister: false,
        manifest: webManifest(),
        injectManifest: {
          // the shell: every chunk (pages are lazy), styles, texts, icons; not the .br/.gz twins
          globPatterns: ["**/*.{js,css,html,svg,png,webmanifest}"],
          globIgnores: ["**/node_modules/**", ".vite/**"],
          maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
        },
      }),
    !isSsrBuild && localeManifests(),
    // last: compresses what the others wrote
    precompress(),
  ],
  // `@/lib/api` is apps/web/src/lib/api: imports never climb more than one level (biome.json)
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  server: {
    port: 5173,
    proxy: { "/api": { target: apiTarget, changeOrigin: true } },
  },
  preview: {
    proxy: { "/api": { target: apiTarget, changeOrigin: true } },
  },
  // The server renderer (src/entry-server.tsx) is one self-contained file: antd's and its
  // dependencies' ES builds are not loadable by Node as they are.
  ssr: { noExternal: true },
  // Bundled, the dependencies' NODE_ENV checks must be settled at build time as in the browser
  // bundle (antd names its classes differently in development: hydration would not match).
  define: isSsrBuild ? { "process.env.NODE_ENV": JSON.stringify("production") } : {},
  build: {
    // the server reads it to link the chunk and CSS of a server-rendered page's route
    manifest: true,
    copyPublicDir: !isSsrBuild,
    outDir: "dist",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    // every browser the app supports has modulepreload: no polyfill in the first chunk; index.html
    // preloads what the entry imports (the npm code of build/chunk-groups.ts). A lazy
    // chunk's stylesheets are still loaded with it, and antd's shared chunk (build/chunk-groups.ts)
    // at the same time as the chunk that imports it rather than after it; its other scripts are not
    // listed for preloading (the list of every chunk's dependencies weighed 2 KB gzip in the first
    // chunk): the chunk imports them itself, and after the first visit the service worker has them all.
    modulePreload: {
      polyfill: false,
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === "html"
          ? deps
          : deps.filter((d) => d.endsWith(".css") || /(^|\/)antd-shell-[\w-]+\.js$/.test(d)),
    },
    // the browser build's npm code in two named chunks, not ~80 small ones (build/chunk-groups.ts)
    rollupOptions: isSsrBuild ? {} : { output: { manualChunks: chunkGroups() } },
  },
  test: {
    environment: "node",
    include: ["src/**/*.test.ts"],
  },
}));
