import { describe, expect, it } from "vitest";
import { computeApps } from "./computeApps";
import { computeBattery } from "./computeBattery";
import { computeTable } from "./computeTable";
import { STATUS, TEXT, numberColumn } from "./fixtures/columns";
import { filteredData } from "./fixtures/filteredData";
import { makeBoard } from "./fixtures/makeBoard";

const a = makeBoard({
  id: "a",
  columns: [STATUS, numberColumn("cost", "$")],
  groups: [{ id: "g", title: "Todo" }],
  items: [
    { name: "one", values: { status: "Done", cost: 1 } },
    { name: "two", values: { status: "Stuck" } },
    { name: "three", values: { status: "Done" } },
    { name: "four", values: {} },
  ],
});
const b = makeBoard({
  id: "b",
  columns: [
    {
      id: "status",
      title: "State",
      type: "status",
      settings: { labels: [{ name: "Shipped", done: true, color: "#0a0" }] },
    },
    TEXT,
  ],
  items: [{ name: "five", values: { status: "Shipped", note: "hi" } }],
});

describe("computeBattery", () => {
  it("gives each label's share in label order, merged across boards, with done labels counted", () => {
    const r = computeBattery(filteredData([a, b, makeBoard({ id: "c", columns: [TEXT] })]), { column: "status" });
    expect(r.segments.map((s) => [s.label, s.count, s.share, s.done])).toEqual([
      ["Stuck", 1, 0.2, false],
      ["Done", 2, 0.4, true],
      ["Shipped", 1, 0.2, true],
      ["(empty)", 1, 0.2, false],
    ]);
    expect(r.segments[2]?.color).toBe("#0a0");
    expect(r.doneCount).toBe(3);
    expect(r.doneShare).toBeCloseTo(0.6, 9);
    expect(r.boardsWithoutColumn).toEqual(["c"]);
  });

  it("is empty with no items, and needs a status column", () => {
    const r = computeBattery(filteredData([makeBoard({ id: "e", columns: [STATUS] })]), { column: "status" });
    expect(r.empty).toBe(true);
    expect(r.doneShare).toBe(0);
    expect(computeBattery(filteredData([a]), { column: "cost" }).boardsWithoutColumn).toEqual(["a"]);
    expect(computeBattery(filteredData([a]), {}).problem).toBe("Choose a status column");
  });
});

describe("computeTable", () => {
  it("lists the filtered items with the chosen columns, titled from the boards", () => {
    const r = computeTable(filteredData([a, b], { rules: [{ column: "status", op: "is_not_empty" }] }), {
      columns: ["status", "note", { a: "cost" }],
    });
    expect(r.columns.map((c) => [c.title, c.type])).toEqual([
      ["Status", "status"],
      ["Note", "text"],
      ["cost", "number"],
    ]);
    expect(r.rows.map((row) => [row.name, row.group, ...row.cells])).toEqual([
      ["one", "Todo", "Done", undefined, 1],
      ["two", "Todo", "Stuck", undefined, undefined],
      ["three", "Todo", "Done", undefined, undefined],
      ["five", "Group 1", "Shipped", "hi", undefined],
    ]);
    expect(r.truncated).toBe(false);
  });

  it("caps the rows it builds", () => {
    const r = computeTable(filteredData([a, b]), { columns: ["status"], limit: 2 });
    expect(r.rows).toHaveLength(2);
    expect(r.totalRows).toBe(5);
    expect(r.truncated).toBe(true);
  });

  it("has no columns and no rows on an empty dashboard", () => {
    expect(computeTable(filteredData([]), undefined)).toEqual({
      kind: "table",
      columns: [],
      rows: [],
      totalRows: 0,
      truncated: false,
    });
  });
});

describe("computeApps", () => {
  it("renders a plain message", () => {
    expect(computeApps()).toEqual({ kind: "apps", message: "Apps are not available in this version." });
  });
});
