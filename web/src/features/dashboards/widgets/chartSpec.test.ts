import { describe, expect, test } from "vitest";
import { applyFilters } from "../engine/applyFilters";
import { computeBurndown } from "../engine/computeBurndown";
import { computeChart } from "../engine/computeChart";
import { computeVelocity } from "../engine/computeVelocity";
import { makeBoard } from "../engine/fixtures/makeBoard";
import { prepareBoards } from "../engine/prepareBoards";
import { burndownSpec, chartWidgetSpec, velocitySpec } from "./chartSpec";

const board = makeBoard({
  id: "a",
  columns: [
    {
      id: "status",
      title: "Status",
      type: "status",
      settings: {
        labels: [
          { name: "Todo", color: "#f00" },
          { name: "Done", done: true },
        ],
      },
    },
    { id: "owner", title: "Owner", type: "people" },
    { id: "budget", title: "Budget", type: "number", settings: { unit: "$" } },
    { id: "sprint", title: "Sprint", type: "text" },
    { id: "effort", title: "Effort", type: "number" },
    { id: "done_on", title: "Done on", type: "date" },
  ],
  items: [
    { values: { status: "Todo", owner: ["m1"], budget: 1200, sprint: "S1", effort: 2, done_on: "2024-01-01" } },
    { values: { status: "Done", owner: ["m2"], budget: 34, sprint: "S1", effort: 3, done_on: "2024-01-03" } },
  ],
});
const data = applyFilters(prepareBoards([board]), {});

describe("chart specs", () => {
  test("a bar chart is horizontal, a column chart vertical, with the status colours and full-value tooltips", () => {
    const bar = chartWidgetSpec(
      computeChart(data, { chartType: "bar", groupBy: "status", function: "sum", column: "budget" }),
      String,
    );
    expect(bar).toMatchObject({ kind: "bar", horizontal: true, labels: ["Todo", "Done"] });
    expect(bar.datasets[0]?.tooltips).toEqual(["$1,200", "$34"]);
    expect(bar.datasets[0]?.colors?.[0]).toBe("#f00");
    const column = chartWidgetSpec(computeChart(data, { chartType: "column", groupBy: "status" }), String);
    expect(column.horizontal).toBe(false);
  });

  test("donut maps to Chart.js doughnut with a legend; people are named from the directory", () => {
    const spec = chartWidgetSpec(computeChart(data, { chartType: "donut", groupBy: "owner" }), (id) => `Name of ${id}`);
    expect(spec).toMatchObject({ kind: "doughnut", legend: true, labels: ["Name of m1", "Name of m2"] });
  });

  test("velocity has committed, completed and the average line", () => {
    const settings = { sprintColumn: "sprint", effortColumn: "effort", doneColumn: "status", dateColumn: "done_on" };
    const spec = velocitySpec(computeVelocity(data, settings));
    expect(spec.datasets.map((d) => d.label)).toEqual(["Committed", "Completed", "Average of last 1"]);
    expect(spec.datasets[0]?.data).toEqual([5]);
    expect(spec.datasets[1]?.data).toEqual([3]);
    const burndown = burndownSpec(computeBurndown(data, settings));
    expect(burndown.labels).toEqual(["2024-01-01", "2024-01-02", "2024-01-03"]);
    expect(burndown.datasets[0]?.data).toEqual([5, 2.5, 0]);
  });
});
