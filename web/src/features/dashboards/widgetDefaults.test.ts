import { describe, expect, test } from "vitest";
import { makeBoard } from "./engine/fixtures/makeBoard";
import type { WidgetConfig } from "./engine/types";
import { WIDGET_MENU } from "./engine/widgetMenu";
import { columnOptions, newWidget } from "./widgetDefaults";

const sprintBoard = makeBoard({
  id: "a",
  columns: [
    { id: "title", title: "Notes", type: "text" },
    { id: "sprint", title: "Sprint", type: "text" },
    { id: "effort", title: "Effort", type: "number" },
    { id: "budget", title: "Budget", type: "number", settings: { unit: "$" } },
    {
      id: "status",
      title: "Status",
      type: "status",
      settings: { labels: [{ name: "Working" }, { name: "Done", done: true }] },
    },
    { id: "due", title: "Due", type: "date" },
    { id: "done_on", title: "Done on", type: "date" },
  ],
  items: [{ values: { sprint: "S1", effort: 3, status: "Done", done_on: "2024-01-03" } }],
});
const other = makeBoard({ id: "b", columns: [{ id: "status", title: "State", type: "dropdown" }] });

describe("newWidget", () => {
  test("each menu type gets a unique id, its label as title, and the first free slot", () => {
    const widgets: WidgetConfig[] = [];
    for (const type of WIDGET_MENU) widgets.push(newWidget(type, widgets, [sprintBoard]));
    expect(new Set(widgets.map((w) => w.id)).size).toBe(5);
    expect(widgets.map((w) => w.title)).toEqual(["Numbers", "Chart", "Velocity", "Planned vs unplanned", "Burndown"]);
    expect(widgets.map((w) => w.layout)).toEqual([
      { x: 0, y: 0, w: 3, h: 3 },
      { x: 3, y: 0, w: 6, h: 6 },
      { x: 0, y: 6, w: 6, h: 6 },
      { x: 6, y: 6, w: 6, h: 6 },
      { x: 0, y: 12, w: 6, h: 6 },
    ]);
    expect(newWidget("numbers", widgets, []).id).toBe("n2");
  });

  test("sprint widgets guess the sprint, effort, done and date columns by name and type", () => {
    expect(newWidget("velocity", [], [sprintBoard]).settings).toEqual({
      sprintColumn: "sprint",
      effortColumn: "effort",
      doneColumn: "status",
      dateColumn: "done_on",
    });
  });

  test("a chart groups by a status column, else by board", () => {
    expect(newWidget("chart", [], [sprintBoard]).settings).toMatchObject({ groupBy: "status", function: "count" });
    expect(newWidget("chart", [], []).settings).toMatchObject({ groupBy: "board" });
  });
});

describe("columnOptions", () => {
  test("one entry per column id, with the boards' count and mixed types said", () => {
    const options = columnOptions([sprintBoard, other]);
    expect(options.find((o) => o.id === "status")).toEqual({
      id: "status",
      title: "Status",
      type: "mixed",
      boardCount: 2,
    });
    expect(options.find((o) => o.id === "budget")).toMatchObject({ type: "number", boardCount: 1 });
  });
});
