import { describe, expect, it } from "vitest";
import { computeNumbers } from "./computeNumbers";
import { STATUS, numberColumn } from "./fixtures/columns";
import { filteredData } from "./fixtures/filteredData";
import { makeBoard } from "./fixtures/makeBoard";
import type { BoardFull } from "./types";

function budgetBoard(id: string, values: unknown[], unit = "$", position?: "left" | "right"): BoardFull {
  return makeBoard({
    id,
    columns: [numberColumn("budget", unit, position), STATUS],
    items: values.map((v) => ({ values: { budget: v, status: "Done" } })),
  });
}

describe("computeNumbers", () => {
  const boards = [budgetBoard("b1", [1000, 200, null]), budgetBoard("b2", [34, undefined, "12"])];

  it.each([
    ["sum", 1234, "$1.2K", "$1,234"],
    ["avg", 411.333333333, "$411.3", "$411.333333333"],
    ["median", 200, "$200", "$200"],
    ["min", 34, "$34", "$34"],
    ["max", 1000, "$1K", "$1,000"],
    ["count", 6, "6", "6"],
  ] as const)("%s over non-empty values", (fn, value, display, full) => {
    const r = computeNumbers(filteredData(boards), { function: fn, column: fn === "count" ? undefined : "budget" });
    expect(r.figures).toHaveLength(1);
    expect(r.figures[0]?.value).toBeCloseTo(value, 6);
    expect(r.display).toBe(display);
    expect(r.full).toBe(full);
    expect(r.problem).toBeNull();
  });

  it("counts non-empty values when count names a column", () => {
    const r = computeNumbers(filteredData(boards), { function: "count", column: "budget" });
    expect(r.display).toBe("3");
  });

  it("takes the mean of the two middle values for an even count, ties included", () => {
    expect(
      computeNumbers(filteredData([budgetBoard("b", [4, 1, 3, 2])]), { function: "median", column: "budget" })
        .figures[0]?.value,
    ).toBe(2.5);
    expect(
      computeNumbers(filteredData([budgetBoard("b", [5, 5, 1, 9])]), { function: "median", column: "budget" })
        .figures[0]?.value,
    ).toBe(5);
    expect(
      computeNumbers(filteredData([budgetBoard("b", [7, 7, 7])]), { function: "max", column: "budget" }).figures[0]
        ?.value,
    ).toBe(7);
  });

  it("finds the same median whether boards' values are counted (few distinct) or copied (many)", () => {
    // 300 distinct values on one board (copied one by one) beside a board of few repeated ones
    // (counted per value); the median must be that of all values together.
    const many = Array.from({ length: 300 }, (_, i) => i * 10);
    for (const length of [301, 302]) {
      const few = Array.from({ length }, (_, i) => [1, 2, 2000][i % 3] as number);
      const all = [...many, ...few].sort((a, b) => a - b);
      const expected = ((all[(all.length - 1) >> 1] as number) + (all[all.length >> 1] as number)) / 2;
      for (const boards of [
        [budgetBoard("many", many), budgetBoard("few", few)],
        [budgetBoard("few", few), budgetBoard("many", many)],
      ]) {
        const r = computeNumbers(filteredData(boards), { function: "median", column: "budget" });
        expect(r.figures[0]?.value).toBe(expected);
        expect(r.figures[0]?.count).toBe(all.length);
      }
    }
    const few = Array.from({ length: 301 }, (_, i) => [1, 2, 2000][i % 3] as number);
    const counted = computeNumbers(filteredData([budgetBoard("few", few)]), { function: "median", column: "budget" });
    expect(counted.figures[0]?.value).toBe(2);
    expect(counted.figures[0]?.count).toBe(301);
  });

  it("shows – for an empty set, never 0", () => {
    const empty = [budgetBoard("b", [null, undefined])];
    for (const fn of ["sum", "avg", "median", "min", "max"] as const) {
      const r = computeNumbers(filteredData(empty), { function: fn, column: "budget" });
      expect(r.display).toBe("–");
      expect(r.figures[0]?.value).toBeNull();
    }
    expect(computeNumbers(filteredData([]), { function: "sum", column: "budget" }).display).toBe("–");
    expect(computeNumbers(filteredData([makeBoard({ id: "e" })]), { function: "count" }).display).toBe("0");
  });

  it("removes floating-point noise", () => {
    const r = computeNumbers(filteredData([budgetBoard("b", [0.1, 0.2], "")]), { function: "sum", column: "budget" });
    expect(r.figures[0]?.value).toBe(0.3);
    expect(r.display).toBe("0.3");
  });

  it("places a right-hand unit after the figure", () => {
    const r = computeNumbers(filteredData([budgetBoard("b", [2, 3], "kg", "right")]), {
      function: "sum",
      column: "budget",
    });
    expect(r.display).toBe("5kg");
  });

  it("never sums different units: one figure per unit", () => {
    const r = computeNumbers(
      filteredData([budgetBoard("b1", [1000, 234]), budgetBoard("b2", [5000]), budgetBoard("b3", [80], "€")]),
      { function: "sum", column: "budget" },
    );
    expect(r.mixedUnits).toBe(true);
    expect(r.figures.map((f) => [f.unit.unit, f.value, f.display])).toEqual([
      ["$", 6234, "$6.2K"],
      ["€", 80, "€80"],
    ]);
    expect(r.display).toBe("$6.2K · €80");
  });

  it("leaves out a unit whose boards hold no value", () => {
    const r = computeNumbers(filteredData([budgetBoard("b1", [10]), budgetBoard("b2", [null], "€")]), {
      function: "sum",
      column: "budget",
    });
    expect(r.mixedUnits).toBe(false);
    expect(r.display).toBe("$10");
  });

  it("reports boards without the column (or where it is not a number column)", () => {
    const textBudget = makeBoard({
      id: "t",
      columns: [{ id: "budget", title: "Budget", type: "text" }],
      items: [{ values: { budget: "900" } }],
    });
    const r = computeNumbers(filteredData([budgetBoard("b1", [5]), makeBoard({ id: "none" }), textBudget]), {
      function: "sum",
      column: "budget",
    });
    expect(r.display).toBe("$5");
    expect(r.boardsWithoutColumn).toEqual(["none", "t"]);
  });

  it("follows a per-board column reference", () => {
    const a = budgetBoard("a", [100]);
    const b = makeBoard({ id: "b", columns: [numberColumn("cost", "$")], items: [{ values: { cost: 50 } }] });
    const r = computeNumbers(filteredData([a, b]), { function: "sum", column: { a: "budget", b: "cost" } });
    expect(r.display).toBe("$150");
  });

  it("computes over the filtered items", () => {
    const b = makeBoard({
      id: "b",
      columns: [numberColumn("budget", "$"), STATUS],
      items: [{ values: { budget: 1000, status: "Done" } }, { values: { budget: 34, status: "Stuck" } }],
    });
    const r = computeNumbers(filteredData([b], { rules: [{ column: "status", op: "is", value: "Done" }] }), {
      function: "sum",
      column: "budget",
    });
    expect(r.display).toBe("$1K");
  });

  it("asks for a column or names an unknown function", () => {
    expect(computeNumbers(filteredData(boards), { function: "sum" }).problem).toBe("Choose a number column");
    expect(computeNumbers(filteredData(boards), { function: "mode" as never, column: "budget" }).problem).toMatch(
      /Unknown function/,
    );
    expect(computeNumbers(filteredData(boards), undefined).display).toBe("6");
  });
});
