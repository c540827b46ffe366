/**
 * Filter rules as narrowings of a board's kept row numbers. Every rule's verdict depends only
 * on the item's cell in its column, so where a column holds few distinct primitive values the
 * rule is decided once per value and each row reads its verdict from a typed array; emptiness
 * tests read the column's filled flags. Anything else (arrays, objects, columns of mostly
 * distinct values) asks the rule's cell predicate, so the results are the cell predicates' by
 * construction. The loops over rows are small monomorphic functions of typed arrays, which the
 * JIT optimises at once: a filter change runs each of them once over up to 100,000 items.
 */
import { type CellPredicate, type InvalidRule, compileRule, ruleDays, ruleKey, ruleNumber } from "./compileRule";
import { type PrimitiveCodes, dayKey, dayKeys, filledFlags, numberValues, primitiveCodes } from "./columnar";
import { builtOnce, mapFor, rowsReading } from "./itemColumns";
import type { Column, FilterRule, PreparedBoard } from "./types";

/** The rows (ascending positions in the board's items) of `rows` that pass. */
export type RowFilter = (rows: Uint32Array) => Uint32Array;

/** Deciding per distinct value pays off only when values repeat and few cells are objects. */
const MAX_SHARE = 0.25;

/*
 * The keep loops write every row and advance only past kept ones, instead of branching on the
 * verdict: verdicts follow the data, not a pattern, so a branch on them is mispredicted often.
 */

export function keepByFlags(rows: Uint32Array, flags: Uint8Array, want: number): Uint32Array {
  const out = new Uint32Array(rows.length);
  let n = 0;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as number;
    out[n] = row;
    n += flags[row] === want ? 1 : 0;
  }
  return out.subarray(0, n);
}

/** Keeps rows whose code's verdict is 1; a code of −1 is never kept. */
function keepByVerdict(rows: Uint32Array, codes: Int32Array, verdict: Uint8Array): Uint32Array {
  const out = new Uint32Array(rows.length);
  let n = 0;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as number;
    const c = codes[row] as number;
    out[n] = row;
    n += c >= 0 ? (verdict[c] as number) : 0;
  }
  return out.subarray(0, n);
}

export function keepByPredicate(rows: Uint32Array, test: (row: number) => boolean): Uint32Array {
  const out = new Uint32Array(rows.length);
  let n = 0;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as number;
    if (test(row)) out[n++] = row;
  }
  return out.subarray(0, n);
}

const COMPARISONS = ["gt", "gte", "lt", "lte"] as const;

/** Keeps rows whose number (or day key) compares to `bound` by `op` (an index into COMPARISONS); NaN never does. */
function keepByComparison(rows: Uint32Array, values: Float64Array, op: number, bound: number): Uint32Array {
  const out = new Uint32Array(rows.length);
  let n = 0;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as number;
    const v = values[row] as number;
    out[n] = row;
    n += (op === 0 ? v > bound : op === 1 ? v >= bound : op === 2 ? v < bound : v <= bound) ? 1 : 0;
  }
  return out.subarray(0, n);
}

/** Per list of distinct values, the verdicts of the rules decided over it lately, by rule. */
const verdictsByValues = new WeakMap<readonly unknown[], Map<string, Uint8Array>>();
/** Rules a list's verdicts are kept for: a filter being edited passes through a few. */
const VERDICTS_KEPT = 16;

/**
 * The rule's verdict on each of `values`: decided once for every board whose column reads the
 * same list (boards read with shared dictionaries), under the rule's `ruleKey`.
 */
function verdictOf(values: PrimitiveCodes["values"], key: string, predicate: CellPredicate): Uint8Array {
  const verdicts = mapFor(verdictsByValues, values);
  if (!verdicts.has(key) && verdicts.size >= VERDICTS_KEPT) verdicts.clear();
  return builtOnce(verdicts, key, () => Uint8Array.from(values, (value) => (predicate(value) ? 1 : 0)));
}

function perValue(predicate: CellPredicate, rule: FilterRule, column: Column, board: PreparedBoard): RowFilter | null {
  const { values, codes, objects } = primitiveCodes(board, column);
  const own = board.items.count * MAX_SHARE;
  // A shared list is decided once for all the rows that read it.
  const rows = Math.max(board.items.count, rowsReading(board.items.coded(column.id).entries));
  if (values.length > rows * MAX_SHARE || objects > own) return null;
  const verdict = verdictOf(values, ruleKey(rule, column), predicate);
  if (objects === 0) return (rows) => keepByVerdict(rows, codes, verdict);
  const cells = board.items.cells(column.id);
  return (rows) =>
    keepByPredicate(rows, (row) => {
      const c = codes[row] as number;
      return c >= 0 ? verdict[c] === 1 : predicate(cells[row]);
    });
}

/** The rule on this board's column as a row filter, or why it cannot apply to that column. */
export function compileRowRule(rule: FilterRule, column: Column, board: PreparedBoard): RowFilter | InvalidRule {
  const predicate = compileRule(rule, column);
  if (typeof predicate !== "function") return predicate;
  if (rule.op === "is_empty" || rule.op === "is_not_empty") {
    const filled = filledFlags(board, column);
    const want = rule.op === "is_empty" ? 0 : 1;
    return (rows) => keepByFlags(rows, filled, want);
  }
  const comparison = COMPARISONS.indexOf(rule.op as (typeof COMPARISONS)[number]);
  if (column.type === "number" && comparison >= 0) {
    // Mostly distinct numbers (budgets, estimates) are compared from the column's numbers.
    const values = numberValues(board, column);
    const bound = ruleNumber(rule.value);
    return (rows) => keepByComparison(rows, values, comparison, bound);
  }
  if ((column.type === "date" || column.type === "timeline") && comparison >= 0) {
    // A timeline is after a day when it starts after it, and before a day when it ends before it.
    const keys = dayKeys(board, column, comparison >= 2 ? "to" : "from");
    const bound = dayKey(ruleDays([rule.value])[0] as string);
    if (keys) return (rows) => keepByComparison(rows, keys, comparison, bound);
  }
  const fast = perValue(predicate, rule, column, board);
  if (fast) return fast;
  const cells = board.items.cells(column.id);
  return (rows) => keepByPredicate(rows, (row) => predicate(cells[row]));
}
