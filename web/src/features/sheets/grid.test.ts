/** The Sheets grid's pure pieces: the rows a viewport draws, the pages it needs, cells as text, sort and filter. */
import { describe, expect, it } from "vitest";
import { PAGE_ROWS, ROW_HEIGHT, cellText, columnLetters, pagesFor, typedValue, viewOrder, visibleRange } from "./grid";

describe("visibleRange", () => {
  it("draws only the rows in view, with overscan, at 100,000 rows", () => {
    const range = visibleRange(50_000 * ROW_HEIGHT, 20 * ROW_HEIGHT, 100_000, 10);
    expect(range).toEqual({ first: 49_990, end: 50_030 });
    expect(visibleRange(0, 600, 5)).toEqual({ first: 0, end: 5 });
  });
  it("needs the pages covering the range", () => {
    expect(pagesFor({ first: PAGE_ROWS - 5, end: PAGE_ROWS + 5 })).toEqual([0, 1]);
    expect(pagesFor({ first: 3, end: 3 })).toEqual([]);
  });
});

describe("cells", () => {
  it("shows values as text and columns as letters", () => {
    expect(cellText({ value: 1.5 })).toBe("1.5");
    expect(cellText({ value: true })).toBe("TRUE");
    expect(cellText({ value: null })).toBe("");
    expect(cellText(undefined)).toBe("");
    expect([0, 25, 26, 27, 701].map(columnLetters)).toEqual(["A", "Z", "AA", "AB", "ZZ"]);
  });
  it("sends numbers as numbers", () => {
    expect(typedValue("42")).toBe(42);
    expect(typedValue("done")).toBe("done");
    expect(typedValue("")).toBeNull();
  });
});

describe("viewOrder", () => {
  const rows = [
    [{ value: "b" }, { value: 10 }],
    [{ value: "a" }, { value: 2 }],
    [{ value: "c" }, { value: null }],
    undefined,
  ];
  it("sorts numbers as numbers, empty cells last", () => {
    expect(viewOrder(rows, { sortColumn: 1, descending: false, filter: "" })).toEqual([1, 0, 2, 3]);
    expect(viewOrder(rows, { sortColumn: 1, descending: true, filter: "" })).toEqual([0, 1, 2, 3]);
  });
  it("filters on any cell's text", () => {
    expect(viewOrder(rows, { sortColumn: null, descending: false, filter: "A" })).toEqual([1]);
  });
});
