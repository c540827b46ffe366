import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";
import { engineLoops } from "./engineLoops.config.ts";

// Vite requires a default export here; everything under src/ uses named exports.
export default defineConfig({
  plugins: [react(), engineLoops()],
  // The dashboard worker is bundled on its own, and runs the engine's loops too.
  worker: { plugins: () => [engineLoops()] },
  build: { outDir: "dist", emptyOutDir: true, assetsDir: "assets" },
  test: { include: ["src/**/*.test.ts", "src/**/*.test.tsx"] },
});
