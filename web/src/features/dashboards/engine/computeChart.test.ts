import { describe, expect, it } from "vitest";
import { type ChartResult, computeChart } from "./computeChart";
import { CHECK, DATE, PEOPLE, STATUS, TAGS, TEXT, TIMELINE, numberColumn } from "./fixtures/columns";
import { filteredData } from "./fixtures/filteredData";
import { makeBoard } from "./fixtures/makeBoard";
import type { ChartSettings } from "./types";

function pairs(r: ChartResult, series = 0): [string, number | null][] {
  return r.categories.map((c, i) => [c.label, r.series[series]?.values[i] ?? null]);
}

const b1 = makeBoard({
  id: "b1",
  name: "Alpha",
  columns: [STATUS, PEOPLE, numberColumn("cost", "$"), DATE, TEXT, TAGS, CHECK, TIMELINE],
  groups: [
    { id: "g1", title: "Now" },
    { id: "g2", title: "Later" },
  ],
  items: [
    {
      groupId: "g1",
      values: {
        status: "Done",
        owner: ["m1", "m2"],
        cost: 10,
        due: "2024-05-06",
        note: "x",
        tags: ["a", "b"],
        ok: true,
      },
    },
    { groupId: "g1", values: { status: "Stuck", owner: ["m1"], cost: -4, due: "2024-05-12", note: "y", tags: ["b"] } },
    {
      groupId: "g2",
      values: { status: null, owner: [], cost: 6, due: "2024-06-01", span: { from: "2024-06-03", to: "2024-06-09" } },
    },
  ],
});
const b2 = makeBoard({
  id: "b2",
  name: "Beta",
  columns: [
    {
      id: "status",
      title: "Status",
      type: "status",
      settings: { labels: [{ name: "Backlog" }, { name: "Done", done: true }, { name: "Stuck" }] },
    },
    numberColumn("cost", "€"),
  ],
  groups: [
    { id: "h1", title: "Later" },
    { id: "h2", title: "Icebox" },
  ],
  items: [
    { groupId: "h1", values: { status: "Done", cost: 100 } },
    { groupId: "h2", values: { status: "Backlog", cost: 1 } },
    { groupId: "h2", values: { status: "Retired", cost: 2 } },
  ],
});

function chart(settings: ChartSettings, boards = [b1, b2]): ChartResult {
  return computeChart(filteredData(boards), settings);
}

describe("computeChart grouping", () => {
  it("orders status labels by label order, merges names across boards, (empty) last", () => {
    const r = chart({ chartType: "bar", groupBy: "status", function: "count" });
    expect(pairs(r)).toEqual([
      ["Working on it", 0],
      ["Stuck", 1],
      ["Done", 2],
      ["Backlog", 1],
      ["Retired", 1],
      ["(empty)", 1],
    ]);
    expect(r.categories.at(-1)?.kind).toBe("empty");
    expect(r.empty).toBe(false);
  });

  it("counts an item once per person, and items without people as (empty)", () => {
    const r = chart({ groupBy: "owner", function: "count" });
    expect(pairs(r)).toEqual([
      ["m1", 2],
      ["m2", 1],
      ["(empty)", 1],
    ]);
    expect(r.categories[0]?.kind).toBe("person");
    expect(r.boardsWithoutColumn).toEqual(["b2"]);
  });

  it("counts a person listed twice on one item once", () => {
    const b = makeBoard({ id: "d", columns: [PEOPLE], items: [{ values: { owner: ["m1", "m1"] } }] });
    expect(pairs(chart({ groupBy: "owner" }, [b]))).toEqual([["m1", 1]]);
  });

  it.each([
    [
      "day",
      [
        ["2024-05-06", 1],
        ["2024-05-12", 1],
        ["2024-06-01", 1],
      ],
    ],
    [
      "week",
      [
        ["Week of 2024-05-06", 2],
        ["Week of 2024-05-27", 1],
      ],
    ],
    [
      "month",
      [
        ["2024-05", 2],
        ["2024-06", 1],
      ],
    ],
  ] as const)("buckets dates by %s in time order", (dateBucket, expected) => {
    expect(pairs(chart({ groupBy: "due", dateBucket }, [b1]))).toEqual(expected);
  });

  it("buckets a timeline by its first day", () => {
    expect(pairs(chart({ groupBy: "span", dateBucket: "month" }, [b1]))).toEqual([
      ["2024-06", 1],
      ["(empty)", 2],
    ]);
  });

  it("groups by group title, merging same-named groups across boards", () => {
    expect(pairs(chart({ groupBy: "group" }))).toEqual([
      ["Now", 2],
      ["Later", 2],
      ["Icebox", 2],
    ]);
  });

  it("groups by board, keeping boards with no items", () => {
    expect(pairs(chart({ groupBy: "board" }, [b1, makeBoard({ id: "z", name: "Empty" })]))).toEqual([
      ["Alpha", 3],
      ["Empty", 0],
    ]);
  });

  it("sorts text and dropdown values, numbers numerically, checkboxes checked first", () => {
    expect(pairs(chart({ groupBy: "tags" }, [b1]))).toEqual([
      ["a", 1],
      ["b", 2],
      ["(empty)", 1],
    ]);
    expect(pairs(chart({ groupBy: "note" }, [b1])).map((p) => p[0])).toEqual(["x", "y", "(empty)"]);
    expect(pairs(chart({ groupBy: "cost" }, [b1])).map((p) => p[0])).toEqual(["-4", "6", "10"]);
    expect(pairs(chart({ groupBy: "ok" }, [b1]))).toEqual([
      ["Checked", 1],
      ["Unchecked", 2],
    ]);
  });
});

describe("computeChart values", () => {
  it("aggregates a number column per bucket, one series per unit", () => {
    const r = chart({ groupBy: "status", function: "sum", column: "cost" });
    expect(r.series.map((s) => s.unit.unit)).toEqual(["$", "€"]);
    expect(pairs(r, 0)).toEqual([
      ["Working on it", null],
      ["Stuck", -4],
      ["Done", 10],
      ["Backlog", null],
      ["Retired", null],
      ["(empty)", 6],
    ]);
    expect(pairs(r, 1).filter(([, v]) => v !== null)).toEqual([
      ["Done", 100],
      ["Backlog", 1],
      ["Retired", 2],
    ]);
    expect(r.series[0]?.displays[2]).toBe("$10");
    expect(r.series[1]?.fulls[2]).toBe("€100");
  });

  it("takes avg, median, min and max per bucket", () => {
    const b = makeBoard({
      id: "m",
      columns: [TEXT, numberColumn("n")],
      items: [1, 2, 3, 10].map((n) => ({ values: { note: "k", n } })),
    });
    const value = (fn: "avg" | "median" | "min" | "max"): number | null =>
      chart({ groupBy: "note", function: fn, column: "n" }, [b]).series[0]?.values[0] ?? null;
    expect([value("avg"), value("median"), value("min"), value("max")]).toEqual([4, 2.5, 1, 10]);
  });

  it("leaves out boards without the number column", () => {
    const r = chart({ groupBy: "status", function: "sum", column: "cost" }, [
      b1,
      makeBoard({ id: "x", columns: [STATUS] }),
    ]);
    expect(r.boardsWithoutColumn).toEqual(["x"]);
  });
});

describe("computeChart pie and donut", () => {
  it("drops negatives and empty slices", () => {
    const r = chart({ chartType: "pie", groupBy: "status", function: "sum", column: "cost" }, [b1]);
    expect(pairs(r)).toEqual([
      ["Done", 10],
      ["(empty)", 6],
    ]);
    expect(r.droppedNegative).toBe(1);
    expect(r.series[0]?.total).toBe(16);
  });

  it("flags a zero total as an empty state", () => {
    const b = makeBoard({
      id: "z",
      columns: [STATUS, numberColumn("cost")],
      items: [{ values: { status: "Done", cost: -5 } }, { values: { status: "Stuck", cost: 0 } }],
    });
    const r = chart({ chartType: "donut", groupBy: "status", function: "sum", column: "cost" }, [b]);
    expect(r.empty).toBe(true);
    expect(r.emptyReason).toBe("zero-total");
    expect(r.categories).toEqual([]);
  });

  it("flags no data on empty boards", () => {
    const r = chart({ chartType: "pie", groupBy: "status" }, [makeBoard({ id: "e", columns: [STATUS] })]);
    expect(r.emptyReason).toBe("no-data");
    expect(chart({ chartType: "bar", groupBy: "status" }, []).emptyReason).toBe("no-data");
  });
});

describe("computeChart settings", () => {
  it("needs a grouping, a column for aggregates and a known function", () => {
    expect(chart({ function: "count" }).problem).toBe("Choose what to group by");
    expect(chart({ groupBy: "status", function: "sum" }).problem).toBe("Choose a number column");
    expect(chart({ groupBy: "status", function: "mode" as never }).problem).toMatch(/Unknown function/);
  });

  it("defaults to a bar chart counting items", () => {
    const r = chart({ groupBy: "board", chartType: "radar" as never });
    expect(r.chartType).toBe("bar");
    expect(r.function).toBe("count");
  });

  it("follows a per-board grouping column", () => {
    const c = makeBoard({ id: "c", columns: [{ ...STATUS, id: "state" }], items: [{ values: { state: "Done" } }] });
    const r = chart({ groupBy: { b1: "status", c: "state" } }, [b1, c]);
    expect(pairs(r).find(([l]) => l === "Done")).toEqual(["Done", 2]);
  });
});
