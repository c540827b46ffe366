import { describe, expect, it } from "vitest";
import { applyFilters } from "./applyFilters";
import { CHECK, DATE, PEOPLE, STATUS, TAGS, TEXT, TIMELINE, numberColumn } from "./fixtures/columns";
import { filteredData } from "./fixtures/filteredData";
import { makeBoard } from "./fixtures/makeBoard";
import { prepareBoards } from "./prepareBoards";
import type { BoardFull, FilteredBoard, FilterRule } from "./types";

const board = makeBoard({
  id: "b1",
  columns: [STATUS, PEOPLE, DATE, TIMELINE, CHECK, TAGS, TEXT, numberColumn("cost", "$")],
  items: [
    {
      name: "a",
      values: {
        status: "Done",
        owner: ["m1"],
        due: "2024-05-01",
        span: { from: "2024-05-01", to: "2024-05-10" },
        ok: true,
        tags: ["red", "blue"],
        note: "Alpha release",
        cost: 100,
      },
    },
    {
      name: "b",
      values: {
        status: "Stuck",
        owner: ["m2", "m3"],
        due: "2024-06-15",
        span: { from: "2024-06-01", to: "2024-06-30" },
        ok: false,
        tags: ["green"],
        note: "beta",
        cost: 250.5,
      },
    },
    { name: "c", values: { status: null, owner: [], due: null, span: null, tags: [], note: "", cost: null } },
    { name: "d", values: {} },
  ],
});

function keptNames({ board, rows }: FilteredBoard): string[] {
  const names = board.items.field("name");
  return Array.from(rows, (row) => names[row] as string);
}

function names(rules: FilterRule[], boards: BoardFull[] = [board]): string[] {
  return filteredData(boards, { rules }).boards.flatMap((b) => keptNames(b));
}

describe("applyFilters: ops by column type", () => {
  it.each<[string, FilterRule, string[]]>([
    ["status is", { column: "status", op: "is", value: "Done" }, ["a"]],
    ["status is any of", { column: "status", op: "is", value: ["Done", "Stuck"] }, ["a", "b"]],
    ["status is_not keeps empty cells", { column: "status", op: "is_not", value: "Done" }, ["b", "c", "d"]],
    ["status contains", { column: "status", op: "contains", value: "stu" }, ["b"]],
    ["status is_empty", { column: "status", op: "is_empty" }, ["c", "d"]],
    ["status is_not_empty", { column: "status", op: "is_not_empty" }, ["a", "b"]],
    ["people is", { column: "owner", op: "is", value: "m3" }, ["b"]],
    ["people contains a member", { column: "owner", op: "contains", value: "m1" }, ["a"]],
    ["people is_empty (empty array and missing)", { column: "owner", op: "is_empty" }, ["c", "d"]],
    ["date is", { column: "due", op: "is", value: "2024-06-15" }, ["b"]],
    ["date gt", { column: "due", op: "gt", value: "2024-05-01" }, ["b"]],
    ["date gte", { column: "due", op: "gte", value: "2024-05-01" }, ["a", "b"]],
    ["date lt", { column: "due", op: "lt", value: "2024-06-15" }, ["a"]],
    ["date lte", { column: "due", op: "lte", value: "2024-06-15" }, ["a", "b"]],
    ["date contains a month", { column: "due", op: "contains", value: "2024-06" }, ["b"]],
    ["timeline is a day inside it", { column: "span", op: "is", value: "2024-06-10" }, ["b"]],
    ["timeline gt uses its first day", { column: "span", op: "gt", value: "2024-05-05" }, ["b"]],
    ["timeline lt uses its last day", { column: "span", op: "lt", value: "2024-06-01" }, ["a"]],
    ["timeline lte its last day", { column: "span", op: "lte", value: "2024-06-30" }, ["a", "b"]],
    ["timeline is_empty", { column: "span", op: "is_empty" }, ["c", "d"]],
    ["checkbox is true", { column: "ok", op: "is", value: true }, ["a"]],
    ["checkbox is false counts unset", { column: "ok", op: "is", value: false }, ["b", "c", "d"]],
    ["checkbox is_empty means unchecked", { column: "ok", op: "is_empty" }, ["b", "c", "d"]],
    ["dropdown is one option", { column: "tags", op: "is", value: "blue" }, ["a"]],
    ["dropdown is_not", { column: "tags", op: "is_not", value: "blue" }, ["b", "c", "d"]],
    ["dropdown contains", { column: "tags", op: "contains", value: "RE" }, ["a", "b"]],
    ["text is exact", { column: "note", op: "is", value: "beta" }, ["b"]],
    ["text contains, case-insensitive", { column: "note", op: "contains", value: "ALPHA" }, ["a"]],
    ["text is_empty counts empty strings", { column: "note", op: "is_empty" }, ["c", "d"]],
    ["number is", { column: "cost", op: "is", value: 100 }, ["a"]],
    ["number is numeric text", { column: "cost", op: "is", value: "250.5" }, ["b"]],
    ["number gt", { column: "cost", op: "gt", value: 100 }, ["b"]],
    ["number gte", { column: "cost", op: "gte", value: 100 }, ["a", "b"]],
    ["number lt never matches empty cells", { column: "cost", op: "lt", value: 1000 }, ["a", "b"]],
    ["number lte", { column: "cost", op: "lte", value: 100 }, ["a"]],
    ["number is_not_empty", { column: "cost", op: "is_not_empty" }, ["a", "b"]],
  ])("%s", (_name, rule, expected) => {
    expect(names([rule])).toEqual(expected);
  });

  it("combines rules with AND", () => {
    expect(
      names([
        { column: "cost", op: "gte", value: 100 },
        { column: "status", op: "is_not", value: "Done" },
      ]),
    ).toEqual(["b"]);
  });

  it("keeps every item without rules and reuses the board's array", () => {
    const prepared = prepareBoards([board]);
    const data = applyFilters(prepared, {});
    expect(data.boards[0]?.rows).toBe(prepared[0]?.allRows);
    expect(data.report.totalItems).toBe(4);
    expect(data.report.keptItems).toBe(4);
    expect(applyFilters(prepared, null).report.rules).toEqual([]);
  });
});

describe("applyFilters: boards without the column", () => {
  const other = makeBoard({ id: "b2", columns: [TEXT], items: [{ name: "x" }, { name: "y" }] });

  it("passes a board without the rule's column whole and reports it", () => {
    const data = filteredData([board, other], { rules: [{ column: "status", op: "is", value: "Done" }] });
    expect(data.boards.map((b) => keptNames(b))).toEqual([["a"], ["x", "y"]]);
    expect(data.report.rules[0]?.appliedBoardIds).toEqual(["b1"]);
    expect(data.report.rules[0]?.skippedBoardIds).toEqual(["b2"]);
    expect(data.report.keptItems).toBe(3);
  });

  it("applies a per-board column reference only to the boards it names", () => {
    const renamed = makeBoard({
      id: "b3",
      columns: [{ ...STATUS, id: "state" }],
      items: [
        { name: "p", values: { state: "Done" } },
        { name: "q", values: { state: "Stuck" } },
      ],
    });
    const data = filteredData([board, renamed], {
      rules: [{ column: { b3: "state" }, op: "is", value: "Stuck" }],
    });
    expect(data.boards.map((b) => keptNames(b))).toEqual([["a", "b", "c", "d"], ["q"]]);
    expect(data.report.rules[0]?.skippedBoardIds).toEqual(["b1"]);
  });

  it("reports a rule that cannot apply to the column's type and lets that board pass", () => {
    const data = filteredData([board], { rules: [{ column: "status", op: "gt", value: 3 }] });
    expect(data.report.rules[0]?.invalid).toEqual([
      { boardId: "b1", reason: "gt applies only to number, date and timeline columns" },
    ]);
    expect(data.report.keptItems).toBe(4);
  });

  it.each<FilterRule>([
    { column: "cost", op: "gt", value: "lots" },
    { column: "cost", op: "is", value: "abc" },
    { column: "due", op: "lt", value: "soon" },
    { column: "ok", op: "contains", value: "x" },
    { column: "note", op: "like", value: "x" },
  ])("reports an unusable rule %o", (rule) => {
    const data = filteredData([board], { rules: [rule] });
    expect(data.report.rules[0]?.invalid).toHaveLength(1);
    expect(data.report.keptItems).toBe(4);
  });

  it("skips a rule on every board of an empty dashboard", () => {
    const data = filteredData([], { rules: [{ column: "status", op: "is", value: "Done" }] });
    expect(data.boards).toEqual([]);
    expect(data.report.rules[0]?.skippedBoardIds).toEqual([]);
    expect(data.report.totalItems).toBe(0);
  });
});

describe("applyFilters: People", () => {
  const second = makeBoard({
    id: "b2",
    columns: [PEOPLE, { id: "reviewer", title: "Reviewer", type: "people" }],
    items: [
      { name: "r1", values: { reviewer: ["m1"] } },
      { name: "r2", values: { owner: ["m9"], reviewer: null } },
    ],
  });
  const noPeople = makeBoard({ id: "b3", columns: [TEXT], items: [{ name: "n1" }] });

  it("keeps items whose people values name one of the members, on any people column", () => {
    const data = filteredData([board, second, noPeople], { people: ["m1", "m3"] });
    expect(data.boards.map((b) => keptNames(b))).toEqual([["a", "b"], ["r1"], ["n1"]]);
    expect(data.report.people).toEqual({ active: true, skippedBoardIds: ["b3"] });
  });

  it("is inactive with no members", () => {
    const data = filteredData([board], { people: [] });
    expect(data.report.people.active).toBe(false);
    expect(data.report.keptItems).toBe(4);
  });

  it("combines with rules", () => {
    const data = filteredData([board], {
      people: ["m1", "m2"],
      rules: [{ column: "status", op: "is", value: "Stuck" }],
    });
    expect(keptNames(data.boards[0]!)).toEqual(["b"]);
  });
});
