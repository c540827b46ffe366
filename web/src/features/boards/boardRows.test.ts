import { describe, expect, test } from "vitest";
import {
  flattenRows,
  gridTemplate,
  insertItem,
  itemRowIndex,
  removeItem,
  replaceItem,
  scrollTopFor,
  visibleRange,
} from "./boardRows";
import type { FullBoardHeader, Item } from "./types";

const board: FullBoardHeader = {
  id: "b",
  workspaceId: "w",
  name: "B",
  columns: [
    { id: "s", title: "Status", type: "status", settings: {} },
    { id: "n", title: "N", type: "number", settings: {} },
  ],
  groups: [
    { id: "g1", title: "One" },
    { id: "g2", title: "Two" },
  ],
};

const item = (id: string, groupId: string): Item => ({
  id,
  groupId,
  name: id,
  values: {},
  createdAt: "",
  updatedAt: "",
});

const items = [item("a", "g1"), item("b", "g2"), item("c", "g1")];

describe("flattenRows", () => {
  test("groups in board order, items in server order, an add row per open group", () => {
    expect(flattenRows(board, items, new Set()).map((r) => r.key)).toEqual([
      "g:g1",
      "a",
      "c",
      "a:g1",
      "g:g2",
      "b",
      "a:g2",
    ]);
  });
  test("a collapsed group keeps its header and count only", () => {
    const rows = flattenRows(board, items, new Set(["g1"]));
    expect(rows.map((r) => r.key)).toEqual(["g:g1", "g:g2", "b", "a:g2"]);
    expect(rows[0]).toMatchObject({ kind: "group", count: 2, collapsed: true });
  });
});

test("visibleRange draws the rows on screen plus the overscan", () => {
  expect(visibleRange(2000, 40, 0, 400, 5)).toEqual({ start: 0, end: 15 });
  expect(visibleRange(2000, 40, 4000, 400, 5)).toEqual({ start: 95, end: 115 });
  expect(visibleRange(20, 40, 4000, 400, 5)).toEqual({ start: 20, end: 20 });
});

test("gridTemplate has the name, one track per column and the actions", () => {
  expect(gridTemplate(board.columns).split(" ").length).toBe(5);
});

test("item list edits keep order", () => {
  expect(insertItem(items, item("d", "g1")).map((i) => i.id)).toEqual(["a", "b", "c", "d"]);
  expect(insertItem(items, item("e", "g3")).map((i) => i.id)).toEqual(["a", "b", "c", "e"]);
  expect(removeItem(items, "b").map((i) => i.id)).toEqual(["a", "c"]);
  const renamed = { ...item("b", "g2"), name: "B!" };
  expect(replaceItem(items, renamed)[1]).toBe(renamed);
});

test("an item's row is found among the rows, and scrolled to a third of the way down", () => {
  const rows = flattenRows(board, items, new Set());
  const index = itemRowIndex(rows, "b");
  expect(index).toBe(5);
  expect(rows[index]).toMatchObject({ kind: "item", item: { id: "b" } });
  expect(itemRowIndex(rows, "nope")).toBe(-1);
  expect(scrollTopFor(100, 40, 600)).toBe(3800);
  expect(scrollTopFor(2, 40, 600)).toBe(0);
});
