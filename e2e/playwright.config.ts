import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: "./tests",
  fullyParallel: false,
  // Two workers in all, but one for every spec but the page matrix (the specs share one server and
  // were written one after another); the matrix, which only reads, runs last, its nine tests two
  // at a time: it was 40 % of the suite's time (docs/decisions.md).
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [
    ["list"],
    ["json", { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ?? "test-results/report.json" }],
  ],
  globalSetup: "./global-setup.ts",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: "fr-FR",
    // a trace (DOM snapshots and screencast of every test, kept on failure) costs a quarter of
    // the suite's time on a 2-core machine; CI keeps only the log, so it records none
    trace: process.env.CI ? "off" : "retain-on-failure",
    screenshot: "only-on-failure",
    // The service worker precaches the whole app shell at the first visit of each new context and
    // answers some requests itself (which page.route then no longer sees): only tests/offline.spec.ts
    // lets it run.
    serviceWorkers: "block",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
        "--autoplay-policy=no-user-gesture-required",
      ],
    },
  },
  projects: [
    {
      name: "chromium",
      testIgnore: /page-matrix\.spec\.ts/,
      workers: 1,
      use: { browserName: "chromium", viewport: { width: 1280, height: 860 } },
    },
    {
      name: "page-matrix",
      testMatch: /page-matrix\.spec\.ts/,
      dependencies: ["chromium"],
      fullyParallel: true,
      use: { browserName: "chromium", viewport: { width: 1280, height: 860 } },
    },
  ],
});
