import { configDefaults, defineConfig } from "vitest/config";

// End-to-end tests: a real server and a real Chromium, one file at a time. The dashboard-scale
// measurement uses the same harness but is a benchmark: `npm run bench:dashboard` runs it.
export default defineConfig({
  test: {
    include: ["e2e/**/*.e2e.ts"],
    exclude: [...configDefaults.exclude, "e2e/dashboard-scale.e2e.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
