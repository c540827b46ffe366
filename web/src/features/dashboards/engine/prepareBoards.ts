/**
 * Per-board lookups built once per load, so the filter step and every widget resolve columns
 * and groups by map look-up instead of scanning arrays for each item.
 */
import type { Board, BoardFull, Column, Item } from "./types";

export interface PreparedBoard {
  id: string;
  name: string;
  board: Board;
  items: readonly Item[];
  columnsById: ReadonlyMap<string, Column>;
  /** Ids of the board's `people` columns, which the People filter reads. */
  peopleColumnIds: readonly string[];
  groupTitleById: ReadonlyMap<string, string>;
}

export function prepareBoards(boards: readonly BoardFull[]): PreparedBoard[] {
  return boards.map(({ board, items }) => {
    const columns = Array.isArray(board.columns) ? board.columns : [];
    const groups = Array.isArray(board.groups) ? board.groups : [];
    return {
      id: board.id,
      name: board.name,
      board,
      items: Array.isArray(items) ? items : [],
      columnsById: new Map(columns.map((c) => [c.id, c])),
      peopleColumnIds: columns.filter((c) => c.type === "people").map((c) => c.id),
      groupTitleById: new Map(groups.map((g) => [g.id, g.title])),
    };
  });
}
