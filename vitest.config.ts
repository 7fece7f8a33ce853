import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    // Limits that only stop a hang: on a busy machine (CI runs two Node versions side by
    // side on two cores) an honest test takes several times as long as on an idle one.
    testTimeout: 180_000,
    hookTimeout: 300_000,
    // Service tests start real servers and worker threads; two cores only.
    pool: "forks",
    maxWorkers: 2,
  },
});
