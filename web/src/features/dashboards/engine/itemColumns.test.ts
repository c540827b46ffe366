import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeDashboard, itemFieldsFor } from "./computeWidget";
import { columnsBody, packCodes } from "./fixtures/columnsBody";
import { CHECK, DATE, PEOPLE, STATUS, TAGS, TEXT, TIMELINE, numberColumn } from "./fixtures/columns";
import { makeBoard } from "./fixtures/makeBoard";
import { ColumnsFormError, ITEM_FIELDS, decodeItemColumns } from "./itemColumns";
import { prepareBoards } from "./prepareBoards";
import type { BoardFull, Column, ColumnarBoard, DashboardFilters, WidgetConfig } from "./types";

const SPRINT: Column = { id: "sprint", title: "Sprint", type: "text" };
const COLUMNS: Column[] = [STATUS, numberColumn("points"), PEOPLE, DATE, TIMELINE, CHECK, TAGS, TEXT, SPRINT];

const day = fc
  .date({ min: new Date("2024-01-01"), max: new Date("2024-03-31"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));

/** Each column's well-formed values, and now and then a value of the wrong shape, which must survive too. */
const cellByColumn: Record<string, fc.Arbitrary<unknown>> = {
  status: fc.constantFrom("Working on it", "Stuck", "Done", ""),
  points: fc.oneof(fc.integer({ min: -5, max: 40 }), fc.double({ noNaN: true, noDefaultInfinity: true })),
  owner: fc.uniqueArray(fc.constantFrom("m1", "m2", "m3"), { maxLength: 3 }),
  due: day,
  span: fc.tuple(day, day).map(([a, b]) => (a <= b ? { from: a, to: b } : { from: b, to: a })),
  ok: fc.boolean(),
  tags: fc.uniqueArray(fc.constantFrom("api", "ui", "ops", "\u00e9t\u00e9"), { maxLength: 3 }),
  note: fc.string({ unit: "binary", maxLength: 12 }),
  sprint: fc.constantFrom("Sprint 1", "Sprint 2", " Sprint 3 ", 3),
};
const oddCell = fc.oneof(fc.constant(null), fc.string(), fc.integer(), fc.dictionary(fc.string(), fc.integer()));

const itemValues = fc.record(
  Object.fromEntries(
    Object.entries(cellByColumn).map(([key, cell]) => [key, fc.oneof({ weight: 4, arbitrary: cell }, oddCell)]),
  ),
  { requiredKeys: [] },
);

const boardArb = (id: string) =>
  fc
    .array(
      fc.record({
        values: itemValues,
        groupId: fc.constantFrom("g1", "g2", "g3"),
        name: fc.string({ unit: "grapheme", maxLength: 10 }),
        createdAt: fc.constantFrom("2024-01-02T09:00:00Z", "2024-01-15T12:30:00Z", "2024-02-01T08:00:00Z"),
      }),
      { maxLength: 60, size: "max" },
    )
    .map((items) =>
      makeBoard({
        id,
        columns: COLUMNS,
        groups: [
          { id: "g1", title: "Now" },
          { id: "g2", title: "Next" },
          { id: "g3", title: "Later" },
        ],
        items,
      }),
    );

/** A read as it comes off the wire, whatever the generator built (null prototypes, −0). */
function overWire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * The compact read, of only `fields` when given (as `fields=` asks the server), its codes packed
 * when `packed` (as `codes=base64` asks).
 */
function compact(read: BoardFull, fields?: readonly string[], packed = false): ColumnarBoard {
  const parsed = overWire(columnsBody(read));
  const items: Record<string, unknown> = { ...parsed.items };
  if (fields) for (const key of Object.keys(items)) if (key !== "count" && !fields.includes(key)) delete items[key];
  return { board: parsed.board, itemColumns: decodeItemColumns(packed ? packCodes(items) : items) };
}

describe("decodeItemColumns", () => {
  it.each([
    ["", false],
    [", its codes packed", true],
  ])("gives every item's fields and values exactly as the JSON read has them%s", (_, packed) => {
    fc.assert(
      fc.property(boardArb("b").map(overWire), (read) => {
        const { itemColumns } = compact(read, undefined, packed);
        expect(itemColumns.count).toBe(read.items.length);
        for (const field of ITEM_FIELDS)
          expect(itemColumns.field(field)).toEqual(read.items.map((item) => item[field]));
        for (const key of [...Object.keys(cellByColumn), "never-set"]) {
          const cells = itemColumns.cells(key);
          read.items.forEach((item, row) => {
            expect(Object.hasOwn(item.values, key) ? item.values[key] : undefined).toStrictEqual(cells[row]);
          });
        }
      }),
      { numRuns: 150 },
    );
  });

  it.each<[string, unknown]>([
    ["a count that is not one", { count: -1, id: [], groupId: [], name: [], createdAt: [], updatedAt: [], values: {} }],
    [
      "a field one entry short",
      { count: 1, id: [], groupId: ["g"], name: ["n"], createdAt: ["t"], updatedAt: ["t"], values: {} },
    ],
    [
      "a code past its dictionary",
      {
        count: 1,
        id: ["i"],
        groupId: { dict: ["g"], codes: [1] },
        name: ["n"],
        createdAt: ["t"],
        updatedAt: ["t"],
        values: {},
      },
    ],
    [
      "an item with no group",
      {
        count: 1,
        id: ["i"],
        groupId: { dict: ["g"], codes: [-1] },
        name: ["n"],
        createdAt: ["t"],
        updatedAt: ["t"],
        values: {},
      },
    ],
    [
      "an id that is not text",
      { count: 1, id: [7], groupId: ["g"], name: ["n"], createdAt: ["t"], updatedAt: ["t"], values: {} },
    ],
    [
      "a values column with too few codes",
      {
        count: 2,
        id: ["i", "j"],
        groupId: ["g", "g"],
        name: ["n", "m"],
        createdAt: ["t", "t"],
        updatedAt: ["t", "t"],
        values: { status: { dict: ["Done"], codes: [0] } },
      },
    ],
    [
      "a values column that is a plain list",
      { count: 1, id: ["i"], groupId: ["g"], name: ["n"], createdAt: ["t"], updatedAt: ["t"], values: { s: ["Done"] } },
    ],
    ["packed codes that are not base64", { count: 1, groupId: { dict: ["g"], codes: "A*==" }, values: {} }],
    ["packed codes one short", { count: 2, groupId: { dict: ["g"], codes: btoa("\u0001") }, values: {} }],
    ["a packed code past its dictionary", { count: 2, values: { s: { dict: ["Done"], codes: btoa("\u0001\u0002") } } }],
    [
      "a packed field with an item of no group",
      { count: 2, groupId: { dict: ["g"], codes: btoa("\u0001\u0000") }, values: {} },
    ],
    [
      "packed codes one byte wide where the dictionary needs two",
      { count: 2, values: { n: { dict: Array.from({ length: 300 }, (_, i) => i), codes: btoa("\u0001\u0002") } } },
    ],
  ])("refuses %s", (_, wire) => {
    expect(() => decodeItemColumns(wire)).toThrow(ColumnsFormError);
  });

  it("names the packed code at fault, past the dictionary before a missing value", () => {
    const refusal = (wire: unknown) => {
      try {
        decodeItemColumns(wire);
      } catch (error) {
        return error instanceof ColumnsFormError ? error.message : `not a form error: ${String(error)}`;
      }
      return "accepted";
    };
    const group = (codes: string) => refusal({ count: 3, groupId: { dict: ["g"], codes }, values: {} });
    expect(group(btoa("\u0001\u0000\u0001"))).toMatch(/holds code -1 for a dictionary of 1$/);
    expect(group(btoa("\u0000\u0003\u0001"))).toMatch(/holds code 2 for a dictionary of 1$/);
    const wide = Array.from({ length: 300 }, (_, i) => i);
    expect(refusal({ count: 2, values: { n: { dict: wide, codes: btoa("\u0001\u0000\u0000\u0002") } } })).toMatch(
      /holds code 511 for a dictionary of 300$/,
    );
  });

  it("reads packed codes of every width, with 0 as no value", () => {
    const le = (width: number, ...stored: number[]) =>
      btoa(
        stored
          .flatMap((value) => Array.from({ length: width }, (_, byte) => (value >>> (8 * byte)) & 0xff))
          .map((byte) => String.fromCharCode(byte))
          .join(""),
      );
    for (const [entries, width] of [
      [3, 1],
      [255, 1],
      [256, 2],
      [65_536, 4],
    ] as const) {
      const dict = Array.from({ length: entries }, (_, i) => i);
      const last = entries - 1;
      const { coded } = decodeItemColumns({
        count: 3,
        values: { n: { dict, codes: le(width, last + 1, 0, 1) } },
      });
      expect([...coded("n").codes]).toEqual([last, -1, 0]);
    }
  });
});

const WIDGETS: WidgetConfig[] = [
  { type: "numbers", settings: {} },
  { type: "numbers", settings: { function: "sum", column: "points" } },
  { type: "numbers", settings: { function: "median", column: "points" } },
  { type: "chart", settings: { chartType: "bar", groupBy: "status" } },
  { type: "chart", settings: { chartType: "pie", groupBy: "owner", function: "sum", column: "points" } },
  { type: "chart", settings: { chartType: "line", groupBy: "due", dateBucket: "week" } },
  { type: "chart", settings: { chartType: "column", groupBy: "span", dateBucket: "month" } },
  { type: "chart", settings: { groupBy: "tags" } },
  { type: "chart", settings: { groupBy: "group", function: "avg", column: "points" } },
  { type: "chart", settings: { groupBy: "ok" } },
  { type: "chart", settings: { groupBy: "note" } },
  {
    type: "velocity",
    settings: { sprintColumn: "sprint", effortColumn: "points", doneColumn: "status", dateColumn: "due" },
  },
  {
    type: "plannedVsUnplanned",
    settings: { sprintColumn: "sprint", effortColumn: "points", doneColumn: "ok", dateColumn: "span" },
  },
  {
    type: "burndown",
    settings: { sprintColumn: "sprint", effortColumn: "points", doneColumn: "status", dateColumn: "due" },
  },
  { type: "battery", settings: { column: "status" } },
  { type: "table", settings: { columns: ["status", "owner", "span"], limit: 20 } },
].map((widget, i) => ({ id: `w${i}`, layout: { x: 0, y: i, w: 4, h: 3 }, ...widget }));

const filtersArb: fc.Arbitrary<DashboardFilters | null> = fc.oneof(
  fc.constant(null),
  fc.record({
    people: fc.uniqueArray(fc.constantFrom("m1", "m2"), { maxLength: 2 }),
    rules: fc.array(
      fc.constantFrom(
        { column: "status", op: "is", value: "Done" },
        { column: "points", op: "gt", value: 3 },
        { column: "due", op: "lte", value: "2024-02-15" },
        { column: "span", op: "gte", value: "2024-02-01" },
        { column: "tags", op: "contains", value: "p" },
        { column: "note", op: "is_not_empty" },
        { column: "ok", op: "is", value: true },
        { column: "sprint", op: "is_not", value: "Sprint 1" },
      ),
      { maxLength: 3 },
    ),
  }),
);

describe("the two forms of the full read", () => {
  it("give every widget the same figures under any filter", () => {
    fc.assert(
      fc.property(fc.tuple(boardArb("a"), boardArb("b")), filtersArb, (reads, filters) => {
        // Fresh reads for each form: prepared boards are kept per read.
        const asJson = reads.map(overWire);
        const asColumns = reads.map((read) => compact(read));
        expect(computeDashboard(prepareBoards(asColumns), filters, WIDGETS)).toEqual(
          computeDashboard(prepareBoards(asJson), filters, WIDGETS),
        );
      }),
      { numRuns: 60 },
    );
  });

  it("give the same figures whatever order the compact form's dictionaries list their entries in", () => {
    // Widgets order buckets, segments and sprints by the kept rows, never by a board's entries:
    // every dictionary reversed (its codes with it) must change nothing.
    const reversed = (read: BoardFull): ColumnarBoard => {
      const parsed = overWire(columnsBody(read));
      const items: Record<string, unknown> = { ...parsed.items };
      const flip = (column: unknown) => {
        if (typeof column !== "object" || column === null || Array.isArray(column)) return column;
        const { dict, codes } = column as { dict: unknown[]; codes: number[] };
        const last = dict.length - 1;
        return { dict: [...dict].reverse(), codes: codes.map((c) => (c < 0 ? c : last - c)) };
      };
      for (const field of ITEM_FIELDS) items[field] = flip(items[field]);
      items.values = Object.fromEntries(Object.entries(parsed.items.values ?? {}).map(([k, c]) => [k, flip(c)]));
      return { board: parsed.board, itemColumns: decodeItemColumns(items) };
    };
    fc.assert(
      fc.property(fc.tuple(boardArb("a"), boardArb("b")), filtersArb, (reads, filters) => {
        expect(computeDashboard(prepareBoards(reads.map(reversed)), filters, WIDGETS)).toEqual(
          computeDashboard(prepareBoards(reads.map(overWire)), filters, WIDGETS),
        );
      }),
      { numRuns: 40 },
    );
  });

  it("give the same figures when read with only the fields the widgets need", () => {
    const figures = WIDGETS.filter((w) => w.type !== "table");
    const fields = itemFieldsFor(figures);
    expect(fields).toEqual(["groupId", "createdAt", "values"]);
    // A table shows ids and names: with one, every field is read.
    expect(itemFieldsFor(WIDGETS)).toBeUndefined();
    fc.assert(
      fc.property(fc.tuple(boardArb("a"), boardArb("b")), filtersArb, (reads, filters) => {
        const lean = reads.map((read) => compact(read, fields));
        expect(lean.every((r) => r.itemColumns.field("name").every((name) => name === undefined))).toBe(true);
        expect(computeDashboard(prepareBoards(lean), filters, figures)).toEqual(
          computeDashboard(prepareBoards(reads.map(overWire)), filters, figures),
        );
      }),
      { numRuns: 40 },
    );
  });
});
