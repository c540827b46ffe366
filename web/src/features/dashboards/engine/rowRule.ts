/**
 * Filter rules as tests of a board's row numbers. Every rule's verdict depends only on the
 * item's cell in its column, so where a column holds few distinct primitive values the rule is
 * decided once per value and each row reads its verdict from a typed array; emptiness tests read
 * the column's filled flags. Anything else (arrays, objects, columns of mostly distinct values)
 * asks the rule's item predicate, so the results are the item predicates' by construction.
 */
import { type InvalidRule, type ItemPredicate, compileRule } from "./compileRule";
import { filledFlags, primitiveCodes } from "./columnar";
import type { PreparedBoard } from "./prepareBoards";
import type { Column, FilterRule, Item } from "./types";

export type RowPredicate = (row: number) => boolean;

/** Deciding per distinct value pays off only when values repeat and few cells are objects. */
const MAX_SHARE = 0.25;

function perValue(predicate: ItemPredicate, column: Column, board: PreparedBoard): RowPredicate | null {
  const { values, codes, objects } = primitiveCodes(board, column);
  const limit = board.items.length * MAX_SHARE;
  if (values.length > limit || objects > limit) return null;
  const verdict = new Uint8Array(values.length);
  const probe: Item = { id: "", groupId: "", name: "", values: {}, createdAt: "", updatedAt: "" };
  for (let c = 0; c < values.length; c++) {
    probe.values = { [column.id]: values[c] };
    verdict[c] = predicate(probe) ? 1 : 0;
  }
  const items = board.items;
  return (row) => {
    const c = codes[row] as number;
    return c >= 0 ? verdict[c] === 1 : predicate(items[row] as Item);
  };
}

/** The rule on this board's column as a row test, or why it cannot apply to that column. */
export function compileRowRule(rule: FilterRule, column: Column, board: PreparedBoard): RowPredicate | InvalidRule {
  const predicate = compileRule(rule, column);
  if (typeof predicate !== "function") return predicate;
  if (rule.op === "is_empty" || rule.op === "is_not_empty") {
    const filled = filledFlags(board, column);
    const want = rule.op === "is_empty" ? 0 : 1;
    return (row) => filled[row] === want;
  }
  const fast = perValue(predicate, column, board);
  if (fast) return fast;
  const items = board.items;
  return (row) => predicate(items[row] as Item);
}
