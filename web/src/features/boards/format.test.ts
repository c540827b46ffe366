import { describe, expect, test } from "vitest";
import { cellName, formatNumber, initials, labelColor, paletteColor, stringList } from "./format";

describe("numbers carry their unit on its side", () => {
  test("left and right units", () => {
    expect(formatNumber(1234.5, { unit: "$", unitPosition: "left" })).toBe("$1,234.5");
    expect(formatNumber(8, { unit: "h", unitPosition: "right" })).toBe("8 h");
    expect(formatNumber(8, { unit: "h" })).toBe("8 h");
    expect(formatNumber(-3, {})).toBe("-3");
  });
  test("no number, nothing shown", () => {
    expect(formatNumber(null, { unit: "$" })).toBe("");
    expect(formatNumber("12", {})).toBe("");
  });
});

test("labels use their own colour, else a stable palette colour", () => {
  expect(labelColor({ name: "Done", color: "#00c875" })).toBe("#00c875");
  expect(labelColor({ name: "Blocked" })).toBe(paletteColor("Blocked"));
  expect(paletteColor("Blocked")).toBe(paletteColor("Blocked"));
  expect(paletteColor("Blocked")).toMatch(/^#[0-9a-f]{6}$/);
});

test("initials of one, two and many words", () => {
  expect(initials("ada")).toBe("A");
  expect(initials("Ada Lovelace")).toBe("AL");
  expect(initials("  Grace  Brewster Hopper ")).toBe("GH");
  expect(initials("")).toBe("?");
});

test("dropdown values keep only strings", () => {
  expect(stringList(["a", 1, "b"])).toEqual(["a", "b"]);
  expect(stringList("a")).toEqual([]);
});

test("a cell's name says what it edits and what it shows, or only what it edits when empty", () => {
  expect(cellName("Status of Alpha", "Done")).toBe("Status of Alpha: Done");
  expect(cellName("Notes of Alpha", "  ")).toBe("Notes of Alpha");
  expect(cellName("Due of Alpha", undefined)).toBe("Due of Alpha");
  expect(cellName("Session of Alpha", "✎")).toBe("Session of Alpha");
});
