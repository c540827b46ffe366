import { defineConfig } from "vitest/config";

// The dashboard-scale measurement (`npm run bench:dashboard`): the e2e harness, but figures
// printed rather than behaviour checked, so it stays out of `npm run e2e`.
export default defineConfig({
  test: {
    include: ["e2e/dashboard-scale.e2e.ts"],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
