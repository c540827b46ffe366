import { configDefaults, defineConfig } from "vitest/config";
import { engineLoops } from "./engineLoops.config.ts";

// End-to-end tests: a real server and a real Chromium, one file at a time. The measurements at
// scale use the same harness but are benchmarks: `npm run bench:dashboard` and
// `npm run bench:sessions` run them.
export default defineConfig({
  plugins: [engineLoops()],
  test: {
    include: ["e2e/**/*.e2e.ts"],
    // Every `-scale` file is a benchmark (vitest.bench.config.ts): by name, so a new one cannot
    // slip into CI's run, as the work page's did for 6 minutes of every run.
    exclude: [...configDefaults.exclude, "e2e/*-scale.e2e.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
