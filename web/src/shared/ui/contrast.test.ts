/** Proves the contrast arithmetic against WCAG's known values, and that a pill's text is readable on its colour. */
import { expect, test } from "vitest";
import { AA_TEXT, DARK_TEXT, LIGHT_TEXT, contrastRatio, parseColor, readableTextOn } from "./contrast";

test("colours are read in the three written forms, and nonsense is not", () => {
  expect(parseColor("#fff")).toEqual([255, 255, 255]);
  expect(parseColor("#0073EA")).toEqual([0, 115, 234]);
  expect(parseColor("rgb(1, 2, 3)")).toEqual([1, 2, 3]);
  expect(parseColor("rgb(300, 2, 3)")).toBeNull();
  expect(parseColor("var(--text)")).toBeNull();
});

test("the ratio matches WCAG's reference values", () => {
  expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
  expect(contrastRatio("#ffffff", "#ffffff")).toBeCloseTo(1, 5);
  // WebAIM's checker gives 4.48:1 for #777 on white, just under AA.
  expect(contrastRatio("#777777", "#ffffff")).toBeCloseTo(4.48, 2);
  expect(contrastRatio("#ffffff", "#777777")).toBe(contrastRatio("#777777", "#ffffff"));
  expect(contrastRatio("#fff", "nope")).toBeNull();
});

test("a light grey pill (the preset To Do) gets dark text, a deep one white, both meeting AA", () => {
  // White on #c4c4c4 was the complaint: 1.8:1.
  expect(contrastRatio(LIGHT_TEXT, "#c4c4c4")!).toBeLessThan(2);
  expect(readableTextOn("#c4c4c4")).toBe(DARK_TEXT);
  expect(contrastRatio(readableTextOn("#c4c4c4"), "#c4c4c4")!).toBeGreaterThanOrEqual(AA_TEXT);
  expect(readableTextOn("#1f2430")).toBe(LIGHT_TEXT);
  expect(readableTextOn("#6a1b9a")).toBe(LIGHT_TEXT);
});

test("every preset label colour, and the worst mid tone, gets text meeting AA", () => {
  for (const color of [
    "#c4c4c4",
    "#579bfc",
    "#fdab3d",
    "#a25ddc",
    "#00c875",
    "#e2445c",
    "#ffcb00",
    "#333333",
    "#767676",
    "#a25ddc",
  ]) {
    expect(contrastRatio(readableTextOn(color), color), color).toBeGreaterThanOrEqual(4.5);
  }
});

test("a colour that cannot be read gets dark text rather than nothing", () => {
  expect(readableTextOn("hsl(1, 2%, 3%)")).toBe(DARK_TEXT);
});
