/**
 * The Numbers widget: one aggregate over the filtered items of every connected board, one
 * figure per unit so that different units are never added together.
 */
import {
  type Accumulator,
  accumulateRows,
  addCounted,
  finishAggregate,
  isAggregateFunction,
  newAccumulator,
} from "./aggregate";
import { countBySlot } from "./loops";
import { slotNumbers, slotWeights } from "./columnar";
import { NO_UNIT, numberUnit } from "./columnSettings";
import { EMPTY_FIGURE, formatCompact, formatFull } from "./formatFigure";
import { resolveColumn } from "./resolveColumn";
import type { AggregateFunction, FilteredData, NumbersSettings, Unit } from "./types";

export interface NumbersFigure {
  unit: Unit;
  /** null for an empty set. */
  value: number | null;
  /** Compact text: `$1.2K`, or `–` for an empty set. */
  display: string;
  /** Full text for the tooltip: `$1,234.5`. */
  full: string;
  /** How many values (or, for count, items) the figure covers. */
  count: number;
}

export interface NumbersResult {
  kind: "numbers";
  function: AggregateFunction;
  /** The headline: the one figure, `–`, or with mixed units the figures joined by ` · `. */
  display: string;
  full: string;
  /** One figure per unit, in the order the boards list them; more than one means mixed units. */
  figures: NumbersFigure[];
  mixedUnits: boolean;
  /** Connected boards that lack the column (or where it is not a number column). */
  boardsWithoutColumn: string[];
  /** A configuration problem to show instead of a figure, or null. */
  problem: string | null;
}

function figure(fn: AggregateFunction, unit: Unit, acc: Accumulator): NumbersFigure {
  const value = finishAggregate(fn, acc);
  return { unit, value, display: formatCompact(value, unit), full: formatFull(value, unit), count: acc.count };
}

function result(
  fn: AggregateFunction,
  figures: NumbersFigure[],
  boardsWithoutColumn: string[],
  problem: string | null,
): NumbersResult {
  return {
    kind: "numbers",
    function: fn,
    display: figures.length === 0 ? EMPTY_FIGURE : figures.map((f) => f.display).join(" · "),
    full: figures.length === 0 ? EMPTY_FIGURE : figures.map((f) => f.full).join(" · "),
    figures,
    mixedUnits: figures.length > 1,
    boardsWithoutColumn,
    problem,
  };
}

/** More distinct values than this on a board and its median keeps every value instead of counting them. */
const MAX_COUNTED_VALUES = 256;

export function computeNumbers(data: FilteredData, settings: NumbersSettings | undefined): NumbersResult {
  const requested = settings?.function ?? "count";
  if (!isAggregateFunction(requested)) {
    return result("count", [], [], `Unknown function ${JSON.stringify(requested)}`);
  }
  const fn = requested;
  const ref = settings?.column;
  const boardsWithoutColumn: string[] = [];

  if (fn === "count") {
    const acc = newAccumulator(fn);
    for (const { board, rows } of data.boards) {
      if (ref === undefined || ref === null) {
        acc.count += rows.length;
        continue;
      }
      const column = resolveColumn(ref, board);
      if (!column) {
        boardsWithoutColumn.push(board.id);
        continue;
      }
      // Each kept item with a value weighs 1, an empty one NaN: adding them up counts the filled.
      accumulateRows(acc, rows, board.items.coded(column.id).codes, slotWeights(board, column));
    }
    return result(fn, [figure(fn, NO_UNIT, acc)], boardsWithoutColumn, null);
  }

  if (ref === undefined || ref === null) return result(fn, [], [], "Choose a number column");
  const byUnit = new Map<string, { unit: Unit; acc: Accumulator }>();
  for (const { board, rows } of data.boards) {
    const column = resolveColumn(ref, board);
    if (!column || column.type !== "number") {
      boardsWithoutColumn.push(board.id);
      continue;
    }
    const unit = numberUnit(column);
    let entry = byUnit.get(unit.unit);
    if (!entry) {
      entry = { unit, acc: newAccumulator(fn) };
      byUnit.set(unit.unit, entry);
    }
    const numbers = slotNumbers(board, column);
    const { codes } = board.items.coded(column.id);
    // The median of a column of few distinct values counts them; any other figure (and a median
    // over many distinct values) adds up the kept items' values one by one.
    if (fn === "median" && numbers.length <= MAX_COUNTED_VALUES + 1)
      addCounted(entry.acc, numbers, countBySlot(rows, codes, numbers.length));
    else accumulateRows(entry.acc, rows, codes, numbers);
  }
  const figures = [...byUnit.values()].map(({ unit, acc }) => figure(fn, unit, acc));
  // A unit whose boards hold no value adds only noise beside real figures.
  const withValues = figures.filter((f) => f.count > 0);
  return result(fn, withValues.length > 0 ? withValues : figures.slice(0, 1), boardsWithoutColumn, null);
}
