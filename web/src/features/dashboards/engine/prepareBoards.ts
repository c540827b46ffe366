/**
 * Per-board lookups built once per load, so the filter step and every widget resolve columns
 * and groups by map look-up instead of scanning arrays for each item. A board's preparation
 * is kept for as long as its full read is (keyed by the read's identity), so boards arriving
 * one after another, or a filter change, never prepare a board twice or lose its column reads.
 */
import { columnsOfItems } from "./itemColumns";
import type { BoardRead, PreparedBoard } from "./types";

const preparedByRead = new WeakMap<BoardRead, PreparedBoard>();

/** 0, 1, 2, …, as long as the largest board met so far. */
let positions = new Uint32Array(0);

/**
 * A board's every row, in order: a prefix of `positions`, which nothing writes to. A load fills
 * it once instead of once per board: fifty boards' loops of a newly opened page's worker ran
 * uncompiled, and V8 then compiled the loop on the other core while the page was starting.
 */
function allRowsOf(count: number): Uint32Array {
  if (positions.length < count) {
    const grown = new Uint32Array(Math.max(count, positions.length * 2));
    grown.set(positions);
    for (let i = positions.length; i < grown.length; i++) grown[i] = i;
    positions = grown;
  }
  return positions.subarray(0, count);
}

function prepareBoard(read: BoardRead): PreparedBoard {
  const { board } = read;
  const columns = Array.isArray(board.columns) ? board.columns : [];
  const groups = Array.isArray(board.groups) ? board.groups : [];
  const items = "itemColumns" in read ? read.itemColumns : columnsOfItems(Array.isArray(read.items) ? read.items : []);
  const allRows = allRowsOf(items.count);
  return {
    id: board.id,
    name: board.name,
    board,
    items,
    allRows,
    columnsById: new Map(columns.map((c) => [c.id, c])),
    peopleColumnIds: columns.filter((c) => c.type === "people").map((c) => c.id),
    groupTitleById: new Map(groups.map((g) => [g.id, g.title])),
    derived: new Map(),
  };
}

/** The boards' preparations; a read prepared before (the same object) is reused as it was. */
export function prepareBoards(boards: readonly BoardRead[]): PreparedBoard[] {
  return boards.map((read) => {
    let prepared = preparedByRead.get(read);
    if (!prepared) {
      prepared = prepareBoard(read);
      preparedByRead.set(read, prepared);
    }
    return prepared;
  });
}
