import { describe, expect, it } from "vitest";
import { computeDashboard, computeWidget, deriveForView } from "./computeWidget";
import { STATUS, numberColumn } from "./fixtures/columns";
import { filteredData } from "./fixtures/filteredData";
import { makeBoard } from "./fixtures/makeBoard";
import { prepareBoards } from "./prepareBoards";
import type { WidgetConfig } from "./types";
import { WIDGET_TYPES } from "../../../shared/api/types.generated";
import { WIDGET_MENU } from "./widgetMenu";

const layout = { x: 0, y: 0, w: 4, h: 3 };
const board = makeBoard({
  id: "b1",
  columns: [STATUS, numberColumn("budget", "$")],
  items: [{ values: { status: "Done", budget: 1000 } }, { values: { status: "Stuck", budget: 234 } }],
});

describe("WIDGET_MENU", () => {
  it("offers exactly the five menu widgets", () => {
    expect(WIDGET_MENU).toEqual(["numbers", "chart", "velocity", "plannedVsUnplanned", "burndown"]);
    expect(WIDGET_TYPES.filter((t) => !(WIDGET_MENU as readonly string[]).includes(t))).toEqual([
      "battery",
      "table",
      "apps",
    ]);
  });
});

describe("computeWidget", () => {
  it("computes every widget type from a saved config", () => {
    const data = filteredData([board]);
    for (const type of WIDGET_TYPES) {
      expect(computeWidget(data, { id: type, type, layout, settings: {} }).kind).toBe(type);
    }
    expect(computeWidget(data, { id: "x", type: "gauge", layout })).toEqual({ kind: "unknown", type: "gauge" });
  });

  it("tolerates settings that are not an object", () => {
    const widget = { id: "n", type: "numbers", layout, settings: null } as unknown as WidgetConfig;
    expect(computeWidget(filteredData([board]), widget)).toMatchObject({ kind: "numbers", display: "2" });
  });
});

describe("computeDashboard", () => {
  it("filters once and computes every widget by id, as the contract's example config", () => {
    const widgets: WidgetConfig[] = [
      { id: "n1", type: "numbers", title: "Budget", layout, settings: { function: "sum", column: "budget" } },
      { id: "c1", type: "chart", layout, settings: { chartType: "pie", groupBy: "status", function: "count" } },
    ];
    const all = computeDashboard(prepareBoards([board]), {}, widgets);
    expect(all.widgets.get("n1")).toMatchObject({ display: "$1.2K", full: "$1,234" });
    const done = computeDashboard(
      prepareBoards([board]),
      { rules: [{ column: "status", op: "is", value: "Done" }] },
      widgets,
    );
    expect(done.widgets.get("n1")).toMatchObject({ display: "$1K" });
    expect(done.widgets.get("c1")).toMatchObject({ categories: [{ label: "Done" }] });
    expect(done.report.keptItems).toBe(1);
  });
});

describe("deriveForView", () => {
  it("reads the columns the view needs from a board up front and leaves the results unchanged", () => {
    const read = () =>
      makeBoard({
        id: "b2",
        columns: [STATUS, numberColumn("budget", "$"), { id: "sprint", title: "Sprint", type: "text" }],
        items: [
          { values: { status: "Done", budget: 5, sprint: "S1" } },
          { values: { status: "Stuck", budget: 7, sprint: "S1" } },
        ],
      });
    const [prepared] = prepareBoards([read()]);
    if (!prepared) throw new Error("no board");
    const filters = { rules: [{ column: "status", op: "is" as const, value: "Done" }] };
    const widgets: WidgetConfig[] = [
      { id: "n", type: "numbers", layout, settings: { function: "sum", column: "budget" } },
      { id: "c", type: "chart", layout, settings: { chartType: "bar", groupBy: "status", function: "count" } },
      { id: "m", type: "numbers", layout, settings: { function: "median", column: "budget" } },
      { id: "v", type: "velocity", layout, settings: { sprintColumn: "sprint", effortColumn: "budget" } },
    ];
    const before = computeDashboard(prepareBoards([read()]), filters, widgets);
    expect(prepared.derived.size).toBe(0);
    deriveForView(prepared, filters, widgets);
    const columns = [...prepared.derived.keys()].map((k) => k.split("\u0000").slice(0, 2).join(" "));
    expect(columns).toEqual(
      expect.arrayContaining(["primitive status", "slotNumbers budget", "slots status", "sprint sprint"]),
    );
    expect(computeDashboard([prepared], filters, widgets)).toEqual(before);
  });
});
