import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Service tests start real servers and worker threads; two cores only.
    pool: "forks",
    maxWorkers: 2,
  },
});
