import { describe, expect, it } from "vitest";
import { applyFilters } from "./applyFilters";
import { NO_DAY, calendarDay } from "./calendarDay";
import { bucketCodes, filledFlags, numberValues, sprintColumns } from "./columnar";
import { computeChart } from "./computeChart";
import { CHECK, DATE, PEOPLE, STATUS, TEXT, TIMELINE, numberColumn } from "./fixtures/columns";
import { makeBoard } from "./fixtures/makeBoard";
import { prepareBoards } from "./prepareBoards";
import type { BoardFull, PreparedBoard } from "./types";

const EFFORT = numberColumn("effort");
const SPRINT = { id: "sprint", title: "Sprint", type: "text" as const };

function board(): BoardFull {
  return makeBoard({
    id: "b",
    columns: [STATUS, PEOPLE, EFFORT, CHECK, DATE, TIMELINE, TEXT, SPRINT],
    groups: [
      { id: "g1", title: "Backlog" },
      { id: "g2", title: "Doing" },
    ],
    items: [
      {
        groupId: "g2",
        values: {
          status: "Done",
          owner: ["m1", "m2", "m1"],
          effort: 3,
          ok: true,
          due: "2024-03-05",
          span: { from: "2024-03-01", to: "2024-03-09" },
          note: "x",
          sprint: " S1 ",
        },
        createdAt: "2024-02-28T10:00:00Z",
      },
      { values: { status: "Blocked", owner: [], effort: "4", ok: false, due: "soon", sprint: "S2" } },
      { groupId: "gone", values: { status: "", effort: 5, note: 7, sprint: "S1" }, createdAt: "" },
    ],
  });
}

function prepared(): PreparedBoard {
  return prepareBoards([board()])[0] as PreparedBoard;
}

describe("prepareBoards", () => {
  it("prepares a full read once and reuses it while the read is the same object", () => {
    const read = board();
    const [first] = prepareBoards([read]);
    const [again] = prepareBoards([read]);
    const [other] = prepareBoards([board()]);
    expect(again).toBe(first);
    expect(other).not.toBe(first);
    expect([...(first?.allRows ?? [])]).toEqual([0, 1, 2]);
  });

  it("gives every board its rows in order, a smaller board's kept as they were when a larger one comes", () => {
    const sized = (id: string, count: number) =>
      makeBoard({ id, items: Array.from({ length: count }, () => ({ values: {} })) });
    const [small] = prepareBoards([sized("small", 3)]);
    const [large, none] = prepareBoards([sized("large", 70), sized("none", 0)]);
    expect([...(small?.allRows ?? [])]).toEqual([0, 1, 2]);
    expect([...(large?.allRows ?? [])]).toEqual(Array.from({ length: 70 }, (_, i) => i));
    expect(none?.allRows.length).toBe(0);
  });
});

describe("column reads", () => {
  it("reads numbers as NaN where empty, and keeps the array for the next reader", () => {
    const b = prepared();
    const values = numberValues(b, EFFORT);
    expect([...values]).toEqual([3, Number.NaN, 5]);
    expect(numberValues(b, EFFORT)).toBe(values);
  });

  it("reads a column holding only numbers as it reads one with text among them", () => {
    const numbersOnly = makeBoard({
      id: "n",
      columns: [EFFORT],
      items: [{ values: { effort: 3 } }, { values: {} }, { values: { effort: -0.5 } }, { values: { effort: 3 } }],
    });
    const [b] = prepareBoards([numbersOnly]);
    expect([...numberValues(b as PreparedBoard, EFFORT)]).toEqual([3, Number.NaN, -0.5, 3]);
  });

  it("flags filled cells by the column's type", () => {
    const b = prepared();
    expect([...filledFlags(b, STATUS)]).toEqual([1, 1, 0]);
    expect([...filledFlags(b, CHECK)]).toEqual([1, 0, 0]);
    expect([...filledFlags(b, PEOPLE)]).toEqual([1, 0, 0]);
  });

  it("codes a status column with its labels first, unlisted values after, empty as −1", () => {
    const codes = bucketCodes(prepared(), STATUS, "day");
    expect(codes.entries.map((e) => e.key)).toEqual(["Working on it", "Stuck", "Done", "Blocked"]);
    expect(codes.preset).toBe(3);
    expect([...codes.codes]).toEqual([2, 3, -1]);
    expect(codes.offsets).toBeNull();
  });

  it("codes people once per person per item, with offsets per item", () => {
    const codes = bucketCodes(prepared(), PEOPLE, "day");
    expect(codes.entries.map((e) => [e.key, e.kind])).toEqual([
      ["m1", "person"],
      ["m2", "person"],
    ]);
    expect([...(codes.offsets ?? [])]).toEqual([0, 2, 2, 2]);
    expect([...codes.codes]).toEqual([0, 1]);
  });

  it("codes checkboxes, groups, the board, dates by bucket, timelines by their first day, text", () => {
    const b = prepared();
    const check = bucketCodes(b, CHECK, "day");
    expect([check.preset, ...check.codes]).toEqual([2, 0, 1, 1]);
    const groups = bucketCodes(b, "group", "day");
    expect(groups.entries.map((e) => e.label)).toEqual(["Backlog", "Doing"]);
    expect([groups.preset, ...groups.codes]).toEqual([2, 1, 0, -1]);
    const whole = bucketCodes(b, "board", "day");
    expect([whole.entries[0]?.key, ...whole.codes]).toEqual(["board:b", 0, 0, 0]);
    const weeks = bucketCodes(b, DATE, "week");
    expect(weeks.entries.map((e) => e.label)).toEqual(["Week of 2024-03-04"]);
    expect([...weeks.codes]).toEqual([0, -1, -1]);
    expect(bucketCodes(b, DATE, "month").entries.map((e) => e.key)).toEqual(["2024-03"]);
    expect(bucketCodes(b, TIMELINE, "day").entries.map((e) => e.key)).toEqual(["2024-03-01"]);
    const text = bucketCodes(b, TEXT, "day");
    expect(text.entries.map((e) => e.key)).toEqual(["x", "7"]);
    expect([...text.codes]).toEqual([0, -1, 1]);
  });

  it("reads sprint columns once per choice of columns", () => {
    const b = prepared();
    const choice = { sprint: SPRINT, effort: EFFORT, done: STATUS, date: TIMELINE };
    const s = sprintColumns(b, choice);
    // What each item reads: its code's slot in the column's table.
    const perItem = (codes: Int32Array, of: ArrayLike<number>) => [...codes].map((c) => of[c + 1]);
    expect(s.names).toEqual(["S1", "S2"]);
    expect(perItem(s.sprintCodes, s.sprintOf)).toEqual([0, 1, 0]);
    expect(perItem(s.effortCodes, s.effortOf)).toEqual([3, Number.NaN, 5]);
    expect(perItem(s.doneCodes, s.doneOf)).toEqual([1, 0, 0]);
    expect(perItem(s.dateCodes, s.firstDayOf)).toEqual([calendarDay("2024-03-01"), NO_DAY, NO_DAY]);
    expect(perItem(s.dateCodes, s.lastDayOf)).toEqual([calendarDay("2024-03-09"), NO_DAY, NO_DAY]);
    expect(perItem(s.createdCodes, s.createdDayOf)).toEqual([
      calendarDay("2024-02-28"),
      calendarDay("2024-01-01"),
      NO_DAY,
    ]);
    expect(sprintColumns(b, { ...choice })).toBe(s);
    const withDate = sprintColumns(b, { ...choice, date: DATE });
    expect(perItem(withDate.dateCodes, withDate.lastDayOf)[0]).toBe(calendarDay("2024-03-05"));
    // Without a date or done column every item reads none, whatever its sprint.
    const bare = sprintColumns(b, { sprint: SPRINT, effort: undefined, done: undefined, date: undefined });
    expect(perItem(bare.dateCodes, bare.lastDayOf)).toEqual([NO_DAY, NO_DAY, NO_DAY]);
    expect(perItem(bare.doneCodes, bare.doneOf)).toEqual([0, 0, 0]);
    expect(perItem(bare.effortCodes, bare.effortOf)).toEqual([Number.NaN, Number.NaN, Number.NaN]);
  });
});

describe("widgets over column reads", () => {
  it("order first-appearance buckets by the kept items, not the board's order", () => {
    const read = makeBoard({
      id: "t",
      columns: [PEOPLE, EFFORT],
      items: [
        { values: { owner: ["m2"], effort: 1 } },
        { values: { owner: ["m1"], effort: 2 } },
        { values: { owner: ["m2"], effort: 3 } },
      ],
    });
    const boards = prepareBoards([read]);
    const keys = (effortFrom: number) =>
      computeChart(applyFilters(boards, { rules: [{ column: "effort", op: "gte", value: effortFrom }] }), {
        groupBy: "owner",
      }).categories.map((c) => c.key);
    expect(keys(1)).toEqual(["m2", "m1"]);
    expect(keys(2)).toEqual(["m1", "m2"]);
  });
});
