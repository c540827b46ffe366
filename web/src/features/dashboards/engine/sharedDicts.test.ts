import { describe, expect, it } from "vitest";
import { applyFilters } from "./applyFilters";
import { computeWidget } from "./computeWidget";
import { CHECK, DATE, PEOPLE, TEXT, TIMELINE, numberColumn } from "./fixtures/columns";
import { columnsBody, shareDicts } from "./fixtures/columnsBody";
import { makeBoard } from "./fixtures/makeBoard";
import { type SharedDicts, decodeItemColumns } from "./itemColumns";
import { prepareBoards } from "./prepareBoards";
import type { BoardFull, ColumnarBoard, Column, DashboardFilters, WidgetConfig } from "./types";

/** The boards decoded as a read with shared dictionaries gives them. */
function sharedDicts(boards: readonly BoardFull[]): { dicts: SharedDicts; reads: ColumnarBoard[] } {
  const { dicts, bodies } = shareDicts(boards.map((read) => columnsBody(read)));
  return { dicts, reads: bodies.map(({ board, items }) => ({ board, itemColumns: decodeItemColumns(items, dicts) })) };
}

const own = (boards: readonly BoardFull[]): ColumnarBoard[] =>
  boards.map((read) => {
    const { board, items } = columnsBody(read);
    return { board, itemColumns: decodeItemColumns(items) };
  });

/** One board's status column marks "Done" done, another "Shipped", in other colours; `more` labels after. */
const statusOf = (done: string, more: string[] = []): Column => ({
  id: "status",
  title: "Status",
  type: "status",
  settings: {
    labels: ["To do", "Done", "Shipped", ...more].map((name) => ({ name, done: name === done, color: `c-${done}` })),
  },
});
const SPRINT: Column = { ...TEXT, id: "sprint" };

const items = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => ({
    values: {
      status: ["To do", "Done", "Shipped"][(i + seed) % 3],
      owner: [["m1"], ["m2"], ["m1", "m2"], []][(i * seed) % 4],
      budget: ((i * 37 + seed * 11) % 9) * 100,
      effort: [1, 2, 3][(i + seed) % 3],
      sprint: `Sprint ${(i % 3) + 1}`,
      due: `2024-01-${String(((i * 3 + seed) % 28) + 1).padStart(2, "0")}`,
      span: { from: `2024-02-0${(i % 9) + 1}`, to: `2024-02-1${i % 10}` },
      // A checkbox on the first board; text on the second, where a stray `true` is not "true".
      ok: seed === 2 ? (i % 3 === 0 ? true : "yes") : i % 2 === 0,
    },
    groupId: i % 2 ? "g1" : "g2",
    createdAt: `2024-01-0${(i % 5) + 1}T09:00:00Z`,
  }));

const groups = [
  { id: "g1", title: "Now" },
  { id: "g2", title: "Later" },
];
const BOARDS = [
  makeBoard({
    id: "a",
    groups,
    columns: [
      statusOf("Done"),
      PEOPLE,
      numberColumn("budget", "$"),
      numberColumn("effort"),
      SPRINT,
      DATE,
      TIMELINE,
      CHECK,
    ],
    items: items(40, 1),
  }),
  // The same keys, other meanings: another done label, a unit on the right, `due` a timeline.
  makeBoard({
    id: "b",
    groups,
    columns: [
      statusOf("Shipped"),
      PEOPLE,
      numberColumn("budget", "€", "right"),
      numberColumn("effort"),
      SPRINT,
      { ...TIMELINE, id: "due" },
      TIMELINE,
      { ...TEXT, id: "ok" },
    ],
    items: items(30, 2).map((item, i) => ({
      ...item,
      values: { ...item.values, due: { from: `2024-01-0${(i % 9) + 1}`, to: `2024-01-2${i % 10}` } },
    })),
  }),
  makeBoard({
    id: "c",
    groups,
    // A label no item holds, which a chart by status still shows.
    columns: [statusOf("Done", ["Blocked"]), PEOPLE, numberColumn("budget", "$"), numberColumn("effort"), SPRINT, DATE],
    items: items(25, 3),
  }),
];

const layout = { x: 0, y: 0, w: 4, h: 3 };
const sprint = { sprintColumn: "sprint", effortColumn: "effort", doneColumn: "status", dateColumn: "due" };
const WIDGETS: WidgetConfig[] = [
  { id: "sum", type: "numbers", layout, settings: { function: "sum", column: "budget" } },
  { id: "median", type: "numbers", layout, settings: { function: "median", column: "effort" } },
  { id: "byStatus", type: "chart", layout, settings: { groupBy: "status", function: "count" } },
  { id: "byOwner", type: "chart", layout, settings: { groupBy: "owner", function: "sum", column: "budget" } },
  {
    id: "byWeek",
    type: "chart",
    layout,
    settings: { groupBy: "due", dateBucket: "week", function: "avg", column: "effort" },
  },
  { id: "byBudget", type: "chart", layout, settings: { groupBy: "budget", function: "count" } },
  { id: "byGroup", type: "chart", layout, settings: { groupBy: "group", function: "max", column: "budget" } },
  { id: "velocity", type: "velocity", layout, settings: sprint },
  { id: "planned", type: "plannedVsUnplanned", layout, settings: sprint },
  { id: "burndown", type: "burndown", layout, settings: { ...sprint, sprint: "Sprint 2" } },
  { id: "battery", type: "battery", layout, settings: { column: "status" } },
];
const FILTERS: DashboardFilters[] = [
  {},
  // `due` is a date on two boards and a timeline on the third: the same value, another verdict.
  { rules: [{ column: "due", op: "is", value: "2024-01-05" }] },
  { rules: [{ column: "sprint", op: "is", value: "Sprint 2" }] },
  { rules: [{ column: "ok", op: "is", value: "true" }] },
  { people: ["m1"] },
  {
    rules: [
      { column: "status", op: "is_not", value: "To do" },
      { column: "budget", op: "gte", value: 200 },
      { column: "span", op: "lte", value: "2024-02-15" },
    ],
  },
];

describe("boards read with shared dictionaries", () => {
  it("compute every widget as boards with their own dictionaries do", () => {
    const { dicts, reads } = sharedDicts(BOARDS);
    // Every board's status entries are the one shared list, which holds all three labels.
    expect(reads[0]?.itemColumns.coded("status").entries).toBe(dicts.status);
    expect(reads[1]?.itemColumns.coded("status").entries).toBe(dicts.status);
    const shared = prepareBoards(reads);
    const separate = prepareBoards(own(BOARDS));
    for (const filters of FILTERS) {
      const [withShared, withOwn] = [applyFilters(shared, filters), applyFilters(separate, filters)];
      expect(withShared.report).toEqual(withOwn.report);
      for (const widget of WIDGETS)
        expect(computeWidget(withShared, widget), `${widget.id} ${JSON.stringify(filters)}`).toEqual(
          computeWidget(withOwn, widget),
        );
    }
  });

  it("read each board's own column settings, whichever board read a shared entry first", () => {
    const { reads } = sharedDicts(BOARDS);
    // Board b alone: "Shipped" is its done label, though board a first decided what the entries mean.
    const [a, b] = prepareBoards(reads);
    if (!a || !b) throw new Error("boards not prepared");
    computeWidget(applyFilters([a], {}), WIDGETS.find((w) => w.id === "velocity") as WidgetConfig);
    const onB = computeWidget(applyFilters([b], {}), WIDGETS.find((w) => w.id === "battery") as WidgetConfig);
    const bAlone = prepareBoards(own([BOARDS[1] as BoardFull]));
    expect(onB).toEqual(
      computeWidget(applyFilters(bAlone, {}), WIDGETS.find((w) => w.id === "battery") as WidgetConfig),
    );
    const velocity = (boards: typeof bAlone) =>
      computeWidget(applyFilters(boards, {}), WIDGETS.find((w) => w.id === "velocity") as WidgetConfig);
    expect(velocity([b])).toEqual(velocity(bAlone));
  });
});
