import { configDefaults, defineConfig } from "vitest/config";
import { engineLoops } from "./engineLoops.config.ts";

// End-to-end tests: a real server and a real Chromium, one file at a time. The measurements at
// scale use the same harness but are benchmarks: `npm run bench:dashboard` and
// `npm run bench:sessions` run them.
export default defineConfig({
  plugins: [engineLoops()],
  test: {
    include: ["e2e/**/*.e2e.ts"],
    exclude: [
      ...configDefaults.exclude,
      "e2e/dashboard-scale.e2e.ts",
      "e2e/sessions-scale.e2e.ts",
      "e2e/board-scale.e2e.ts",
      "e2e/transcript-scale.e2e.ts",
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
