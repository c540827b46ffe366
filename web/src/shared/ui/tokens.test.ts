/**
 * Proves the stylesheet's colour tokens are the table's, in both themes, and that every pair the
 * app draws meets WCAG AA: a colour changed in `styles.css` that breaks contrast fails here.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { contrastRatio } from "./contrast";
import { COLOR_TOKENS, TOKEN_PAIRS, declarationsOf, type Theme } from "./tokens";

const css = readFileSync(new URL("../../app/styles.css", import.meta.url), "utf8");
const SELECTOR: Record<Theme, string> = { light: ":root", dark: ':root[data-theme="dark"]' };

test.each(["light", "dark"] as const)("the %s theme's tokens in styles.css are the table's", (theme) => {
  const declared = declarationsOf(css, SELECTOR[theme]);
  const inCss = Object.fromEntries(Object.keys(COLOR_TOKENS[theme]).map((name) => [name, declared.get(name)]));
  expect(inCss).toEqual(COLOR_TOKENS[theme]);
});

test.each(["light", "dark"] as const)("every pair drawn in the %s theme meets AA", (theme) => {
  const failing = TOKEN_PAIRS.flatMap(({ fg, bg, min, use }) => {
    const ratio = contrastRatio(COLOR_TOKENS[theme][fg], COLOR_TOKENS[theme][bg]);
    return ratio !== null && ratio >= min ? [] : [`${fg} on ${bg} (${use}): ${ratio?.toFixed(2)} < ${min}`];
  });
  expect(failing).toEqual([]);
});

test("the check can fail: the old light muted grey on the grey surface is below AA", () => {
  expect(contrastRatio("#677084", COLOR_TOKENS.light["--surface-2"])!).toBeLessThan(4.5);
});

test("declarations are read from the named block only", () => {
  const sample = ":root {\n  --a: #111;\n  --b: 1px;\n}\n:root[x] {\n  --a: #222;\n}";
  expect(declarationsOf(sample, ":root").get("--a")).toBe("#111");
  expect(declarationsOf(sample, ":root[x]").get("--a")).toBe("#222");
  expect(declarationsOf(sample, ".none").size).toBe(0);
});
