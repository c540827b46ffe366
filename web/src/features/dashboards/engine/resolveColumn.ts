/** Resolution of a column reference on one board. */
import type { Column, ColumnRef, PreparedBoard } from "./types";

/**
 * The column a reference names on a board: a string is that column id on any board having it;
 * an object `{boardId: columnId}` names a column only on the boards it lists.
 */
export function resolveColumn(ref: ColumnRef | undefined | null, board: PreparedBoard): Column | undefined {
  if (typeof ref === "string") return board.columnsById.get(ref);
  if (typeof ref !== "object" || ref === null || Array.isArray(ref)) return undefined;
  if (!Object.prototype.hasOwnProperty.call(ref, board.id)) return undefined;
  const id = ref[board.id];
  return typeof id === "string" ? board.columnsById.get(id) : undefined;
}

/** A stable text key of a reference, for React keys and table headers. */
export function columnRefKey(ref: ColumnRef): string {
  return typeof ref === "string" ? ref : JSON.stringify(ref);
}
