import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// Vite requires a default export here; everything under src/ uses named exports.
export default defineConfig({
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, assetsDir: "assets" },
  test: { include: ["src/**/*.test.ts", "src/**/*.test.tsx"] },
});
