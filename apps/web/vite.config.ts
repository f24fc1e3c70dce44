import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { precompress } from "./build/precompress";

const apiTarget = process.env.API_PROXY_TARGET ?? "http://localhost:3000";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), precompress()],
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
  },
  test: {
    environment: "node",
    include: ["src/**/*.test.ts"],
  },
}));
