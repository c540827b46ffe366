import { defineConfig } from "vitest/config";

// End-to-end tests: a real server and a real Chromium, one file at a time.
export default defineConfig({
  test: {
    include: ["e2e/**/*.e2e.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
