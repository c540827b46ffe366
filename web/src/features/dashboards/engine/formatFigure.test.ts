import { describe, expect, it } from "vitest";
import { EMPTY_FIGURE, cleanNumber, formatCompact, formatFull } from "./formatFigure";

const dollars = { unit: "$", position: "left" as const };
const kg = { unit: "kg", position: "right" as const };

describe("formatCompact", () => {
  it.each([
    [1234, "1.2K"],
    [1034, "1K"],
    [234, "234"],
    [1250000, "1.3M"],
    [999, "999"],
    [1000, "1K"],
    [1050, "1.1K"],
    [12345, "12.3K"],
    [999500, "999.5K"],
    [999950, "1M"],
    [-1234, "-1.2K"],
    [1234567890, "1.2B"],
    [0.1 + 0.2, "0.3"],
    [0, "0"],
    [-0, "0"],
    [-0.04, "0"],
    [2.25, "2.3"],
  ])("%s → %s", (value, text) => {
    expect(formatCompact(value)).toBe(text);
  });

  it("puts a left unit before the figure and after the sign", () => {
    expect(formatCompact(1234, dollars)).toBe("$1.2K");
    expect(formatCompact(1034, dollars)).toBe("$1K");
    expect(formatCompact(234, dollars)).toBe("$234");
    expect(formatCompact(-1234, dollars)).toBe("-$1.2K");
    expect(formatCompact(100000, dollars)).toBe("$100K");
  });

  it("puts a right unit after the figure", () => {
    expect(formatCompact(5, kg)).toBe("5kg");
    expect(formatCompact(1500, kg)).toBe("1.5Kkg");
  });

  it("shows the empty set as a dash, never 0, with or without a unit", () => {
    expect(formatCompact(null)).toBe(EMPTY_FIGURE);
    expect(formatCompact(null, dollars)).toBe("–");
    expect(formatCompact(Number.NaN)).toBe("–");
  });
});

describe("formatFull", () => {
  it("gives the whole value with grouping and the unit", () => {
    expect(formatFull(1234.5, dollars)).toBe("$1,234.5");
    expect(formatFull(1250000)).toBe("1,250,000");
    expect(formatFull(0.1 + 0.2)).toBe("0.3");
    expect(formatFull(-1234, kg)).toBe("-1,234kg");
    expect(formatFull(null)).toBe("–");
  });
});

describe("cleanNumber", () => {
  it("removes floating-point noise and negative zero", () => {
    expect(cleanNumber(0.1 + 0.2)).toBe(0.3);
    expect(Object.is(cleanNumber(-0), 0)).toBe(true);
    expect(cleanNumber(123456789.123)).toBe(123456789.123);
  });
});
