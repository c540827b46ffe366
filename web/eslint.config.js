import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// ESLint requires a default export here; everything under src/ uses named exports.
// Import cycles and the feature boundaries are checked by src/importGraph.test.ts, which needs no resolver plugin.
export default defineConfig(
  { ignores: ["dist/", "bench/.out/", "**/*.generated.ts"] },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // As tsc's noUnusedParameters: a leading underscore marks a parameter kept for its position.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
);
