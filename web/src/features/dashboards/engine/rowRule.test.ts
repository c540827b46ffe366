import { describe, expect, it } from "vitest";
import { compileRule } from "./compileRule";
import { CHECK, DATE, PEOPLE, STATUS, TEXT, TIMELINE, numberColumn } from "./fixtures/columns";
import { makeBoard } from "./fixtures/makeBoard";
import { prepareBoards } from "./prepareBoards";
import { compileRowRule } from "./rowRule";
import type { Column, FilterRule } from "./types";

const EFFORT = numberColumn("effort");
const POOLS: Record<string, unknown[]> = {
  status: ["Done", "Stuck", "", null, undefined, 5, "5", true, ["Done"]],
  effort: [1, 2, 3.5, 0, -1, "2", null, undefined, Number.NaN, { v: 1 }],
  note: ["alpha", "Beta", "", "  ", 7, null, undefined, false],
  due: ["2024-03-01", "2024-03-02", "2024-03-02T10:00:00Z", "soon", null, 20240301],
  // A day's shape without its digits: compared as text by the item predicate.
  odd: ["2024-03-01", "2024-0x-02", null],
  ok: [true, false, "true", null, undefined, 1],
  owner: [["m1"], ["m2", "m1"], [], null, "m1"],
  span: [{ from: "2024-03-01", to: "2024-03-05" }, { from: "2024-03-04" }, null, "2024-03-01"],
};
const ODD_DATE: Column = { id: "odd", title: "Odd", type: "date" };
const COLUMNS: Column[] = [STATUS, EFFORT, TEXT, DATE, CHECK, PEOPLE, TIMELINE, ODD_DATE];
const RULES: FilterRule[] = [
  { column: "status", op: "is", value: "Done" },
  { column: "status", op: "is", value: "5" },
  { column: "status", op: "is", value: ["Done", "Stuck"] },
  { column: "status", op: "is_not", value: "Done" },
  { column: "status", op: "contains", value: "o" },
  { column: "status", op: "is_empty" },
  { column: "effort", op: "is", value: "2" },
  { column: "effort", op: "gt", value: 1 },
  { column: "effort", op: "lte", value: 0 },
  { column: "effort", op: "is_not_empty" },
  { column: "note", op: "is", value: "alpha" },
  { column: "note", op: "contains", value: "b" },
  { column: "note", op: "is_empty" },
  { column: "due", op: "is", value: "2024-03-02" },
  { column: "due", op: "gte", value: "2024-03-02" },
  { column: "due", op: "is_not", value: "2024-03-01T08:00:00Z" },
  { column: "ok", op: "is", value: true },
  { column: "ok", op: "is_not", value: "true" },
  { column: "owner", op: "is", value: "m1" },
  { column: "owner", op: "contains", value: "m2" },
  { column: "span", op: "lt", value: "2024-03-03" },
  { column: "span", op: "gte", value: "2024-03-04" },
  { column: "odd", op: "gt", value: "2024-02-01" },
  { column: "span", op: "is", value: "2024-03-04" },
];

function items(count: number, distinct: boolean) {
  return Array.from({ length: count }, (_, i) => {
    const values: Record<string, unknown> = {};
    for (const [id, pool] of Object.entries(POOLS)) {
      // Mostly distinct numbers on one board, so that board takes the item predicate path.
      values[id] = distinct && id === "effort" ? i / 3 : pool[(i * 7 + id.length) % pool.length];
    }
    return { values };
  });
}

describe("compileRowRule", () => {
  it.each([false, true])(
    "keeps exactly the rows the cell predicate keeps (mostly distinct numbers: %s)",
    (distinct) => {
      const [board] = prepareBoards([makeBoard({ id: "b", columns: COLUMNS, items: items(400, distinct) })]);
      if (!board) throw new Error("no board");
      for (const rule of RULES) {
        const column = board.columnsById.get(rule.column as string) as Column;
        const byItem = compileRule(rule, column);
        const byRow = compileRowRule(rule, column, board);
        if (typeof byItem !== "function" || typeof byRow !== "function") {
          expect(byRow).toEqual(byItem);
          continue;
        }
        const expected = board.items.cells(column.id).map((cell) => byItem(cell));
        const kept = new Set(byRow(board.allRows));
        const actual = Array.from(board.allRows, (row) => kept.has(row));
        expect({ rule, kept: actual }).toEqual({ rule, kept: expected });
      }
    },
  );

  it("passes a rule's reason on when it cannot apply", () => {
    const [board] = prepareBoards([makeBoard({ id: "b", columns: COLUMNS })]);
    if (!board) throw new Error("no board");
    expect(compileRowRule({ column: "status", op: "gt", value: 1 }, STATUS, board)).toEqual({
      invalid: "gt applies only to number, date and timeline columns",
    });
  });
});
