import { defineConfig } from "vitest/config";

// One database per worker, shared by the test files that worker runs (isolate: false keeps
// the module-level handle alive): PGlite takes seconds to open, a reset takes milliseconds.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    pool: "forks",
    isolate: false,
    maxWorkers: 2,
    // the memory tests collect garbage themselves, so that what they measure is what is held
    execArgv: ["--expose-gc"],
    fileParallelism: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    sequence: { hooks: "list" },
  },
});
