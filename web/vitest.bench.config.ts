import { defineConfig } from "vitest/config";
import { engineLoops } from "./engineLoops.config.ts";

// The measurements at scale (`npm run bench:dashboard`, `npm run bench:sessions`, `npm run bench:work`):
// the e2e harness, but figures printed rather than behaviour checked, so they stay out of `npm run e2e`.
export default defineConfig({
  plugins: [engineLoops()],
  test: {
    include: ["e2e/*-scale.e2e.ts"],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
