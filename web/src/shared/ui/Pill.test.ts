/** Proves a coloured pill carries its colour and the readable text colour for it, and an uncoloured one neither. */
import { expect, test } from "vitest";
import { pillStyle } from "./Pill";

test("a light grey pill gets black text, a dark one white", () => {
  expect(pillStyle("#c4c4c4")).toEqual({ "--pill-bg": "#c4c4c4", "--pill-text": "#000000" });
  expect(pillStyle("#1f2430")).toEqual({ "--pill-bg": "#1f2430", "--pill-text": "#ffffff" });
});

test("no colour leaves the theme's", () => {
  expect(pillStyle(undefined)).toBeUndefined();
  expect(pillStyle("")).toBeUndefined();
});
