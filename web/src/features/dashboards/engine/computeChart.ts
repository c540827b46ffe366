/**
 * The Chart widget: items bucketed by a column, by group or by board, each bucket holding a
 * count or an aggregate of a number column, one series per unit. Buckets of the same name on
 * different boards merge.
 */
import { type Accumulator, accumulate, finishAggregate, isAggregateFunction, newAccumulator } from "./aggregate";
import { type BucketCodes, type BucketEntry, bucketCodes, countWeights, numberValues } from "./columnar";
import { NO_UNIT, numberUnit } from "./columnSettings";
import { cleanNumber, formatCompact, formatFull } from "./formatFigure";
import { resolveColumn } from "./resolveColumn";
import type {
  AggregateFunction,
  ChartCategoryKind,
  ChartSettings,
  ChartType,
  Column,
  DateBucket,
  FilteredData,
  Unit,
} from "./types";

export interface ChartCategory {
  key: string;
  /** Display text; for `person` it is the member id, which the renderer names from the directory. */
  label: string;
  kind: ChartCategoryKind;
  color?: string;
}

export interface ChartSeries {
  unit: Unit;
  /** Aligned with `categories`; null where the bucket has no value (or a negative was dropped). */
  values: (number | null)[];
  displays: string[];
  fulls: string[];
  total: number;
}

export interface ChartResult {
  kind: "chart";
  chartType: ChartType;
  function: AggregateFunction;
  categories: ChartCategory[];
  /** One series per unit of the aggregated column (one unit-less series for count). */
  series: ChartSeries[];
  empty: boolean;
  emptyReason: "no-data" | "zero-total" | null;
  /** Pie and donut: how many negative bucket values were left out. */
  droppedNegative: number;
  /** Boards without the grouping column or, for aggregates, without the number column. */
  boardsWithoutColumn: string[];
  problem: string | null;
}

export const EMPTY_BUCKET_LABEL = "(empty)";
const EMPTY_KEY = "\u0000empty";
const CHART_TYPES: readonly ChartType[] = ["bar", "column", "pie", "donut", "line"];

/** Made once: building a collator costs far more than sorting a chart's labels. */
const LABELS = new Intl.Collator("en-US", { numeric: true, sensitivity: "base" });

type SortMode = "insertion" | "text" | "number" | "date";

/** The chart's buckets, merged by key across boards. */
class Buckets {
  readonly index = new Map<string, number>();
  readonly categories: ChartCategory[] = [];
  readonly sortValues: number[] = [];
  constructor(private readonly onAdd: () => void) {}

  add(key: string, label: string, kind: ChartCategoryKind, sortValue = 0, color?: string): number {
    let i = this.index.get(key);
    if (i === undefined) {
      i = this.categories.length;
      this.index.set(key, i);
      this.categories.push(color === undefined ? { key, label, kind } : { key, label, kind, color });
      this.sortValues.push(sortValue);
      this.onAdd();
    }
    return i;
  }

  addEntry(entry: BucketEntry): number {
    return this.add(entry.key, entry.label, entry.kind, entry.sortValue, entry.color);
  }

  empty(): number {
    return this.add(EMPTY_KEY, EMPTY_BUCKET_LABEL, "empty");
  }

  /** Bucket order: insertion, text, number or date order, with "(empty)" always last. */
  order(mode: SortMode): number[] {
    const order = this.categories.map((_, i) => i);
    if (mode === "text") {
      order.sort((a, b) => LABELS.compare(this.categories[a]?.label ?? "", this.categories[b]?.label ?? ""));
    } else if (mode === "number" || mode === "date") {
      order.sort((a, b) => (this.sortValues[a] ?? 0) - (this.sortValues[b] ?? 0));
    }
    const empty = this.index.get(EMPTY_KEY);
    if (empty === undefined) return order;
    return [...order.filter((i) => i !== empty), empty];
  }
}

function sortModeOf(types: ReadonlySet<string>): SortMode {
  if (types.size !== 1) return "insertion";
  const [type] = types;
  if (type === "date" || type === "timeline") return "date";
  if (type === "number") return "number";
  if (type === "text" || type === "dropdown") return "text";
  return "insertion";
}

interface BoardPlan {
  rows: Uint32Array;
  codes: BucketCodes;
  /** Per entry of `codes`: its bucket, or −1 until an item first falls into it. */
  toBucket: Int32Array;
  /** Per item: the aggregated number, or for count 1; NaN where the item is left out. */
  values: Float64Array;
  unitIndex: number;
}

/**
 * Per slot (0 for an empty cell, c + 1 for entry c of the board's bucket codes): its running
 * figures, and where in the kept rows it was first met (buckets appear in that order).
 */
interface SlotTally {
  first: Float64Array;
  count: Float64Array;
  sum: Float64Array;
  min: Float64Array;
  max: Float64Array;
}

function slotTally(slots: number): SlotTally {
  return {
    first: new Float64Array(slots),
    count: new Float64Array(slots),
    sum: new Float64Array(slots),
    min: new Float64Array(slots).fill(Infinity),
    max: new Float64Array(slots).fill(-Infinity),
  };
}

/**
 * The hot loops of the Chart widget, kept small and monomorphic so the JIT optimises them at
 * once: each kept row's value goes to its slot. Multi-valued cells add the value to each of
 * their entries; positions there are of the entry list, doubled so an empty cell (at 2j − 1)
 * sorts before the entries that follow it.
 */
function tallySingle(rows: Uint32Array, codes: Int32Array, values: Float64Array, t: SlotTally): void {
  const { first, count, sum, min, max } = t;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as number;
    const v = values[row] as number;
    if (v !== v) continue;
    const slot = (codes[row] as number) + 1;
    if (count[slot] === 0) first[slot] = k;
    count[slot] = (count[slot] as number) + 1;
    sum[slot] = (sum[slot] as number) + v;
    if (v < (min[slot] as number)) min[slot] = v;
    if (v > (max[slot] as number)) max[slot] = v;
  }
}

function tallyMulti(
  rows: Uint32Array,
  codes: Int32Array,
  offsets: Int32Array,
  values: Float64Array,
  t: SlotTally,
): void {
  const { first, count, sum, min, max } = t;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as number;
    const v = values[row] as number;
    if (v !== v) continue;
    const from = offsets[row] as number;
    const to = offsets[row + 1] as number;
    if (from === to) {
      if (count[0] === 0) first[0] = 2 * from - 1;
      count[0] = (count[0] as number) + 1;
      sum[0] = (sum[0] as number) + v;
      if (v < (min[0] as number)) min[0] = v;
      if (v > (max[0] as number)) max[0] = v;
      continue;
    }
    for (let j = from; j < to; j++) {
      const slot = (codes[j] as number) + 1;
      if (count[slot] === 0) first[slot] = 2 * j;
      count[slot] = (count[slot] as number) + 1;
      sum[slot] = (sum[slot] as number) + v;
      if (v < (min[slot] as number)) min[slot] = v;
      if (v > (max[slot] as number)) max[slot] = v;
    }
  }
}

function problemResult(chartType: ChartType, fn: AggregateFunction, problem: string): ChartResult {
  return {
    kind: "chart",
    chartType,
    function: fn,
    categories: [],
    series: [],
    empty: true,
    emptyReason: "no-data",
    droppedNegative: 0,
    boardsWithoutColumn: [],
    problem,
  };
}

/** Calls `add` with each kept row's slot and value, in row order (one call per entry). */
function forEachSlot(plan: BoardPlan, add: (slot: number, value: number) => void): void {
  const { rows, values } = plan;
  const { codes, offsets } = plan.codes;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as number;
    const value = values[row] as number;
    if (value !== value) continue;
    if (offsets === null) {
      add((codes[row] as number) + 1, value);
      continue;
    }
    const from = offsets[row] as number;
    const to = offsets[row + 1] as number;
    if (from === to) add(0, value);
    for (let j = from; j < to; j++) add((codes[j] as number) + 1, value);
  }
}

export function computeChart(data: FilteredData, settings: ChartSettings | undefined): ChartResult {
  const chartType = CHART_TYPES.includes(settings?.chartType as ChartType) ? (settings?.chartType as ChartType) : "bar";
  const requested = settings?.function ?? "count";
  if (!isAggregateFunction(requested))
    return problemResult(chartType, "count", `Unknown function ${JSON.stringify(requested)}`);
  const fn = requested;
  const groupBy = settings?.groupBy;
  if (groupBy === undefined || groupBy === null || groupBy === "")
    return problemResult(chartType, fn, "Choose what to group by");
  const valueRef = settings?.column;
  const hasValueRef = valueRef !== undefined && valueRef !== null;
  if (fn !== "count" && !hasValueRef) return problemResult(chartType, fn, "Choose a number column");
  const dateBucket: DateBucket =
    settings?.dateBucket === "week" || settings?.dateBucket === "month" ? settings.dateBucket : "day";

  // Count is unit-less: one series. Aggregates get one series per unit, never mixed.
  const unitless = fn === "count";
  const units: { unit: Unit; accs: Accumulator[] }[] = [];
  const unitIndex = new Map<string, number>();
  const unitOf = (unit: Unit): number => {
    let i = unitIndex.get(unit.unit);
    if (i === undefined) {
      i = units.length;
      unitIndex.set(unit.unit, i);
      units.push({ unit, accs: [] });
    }
    return i;
  };
  if (unitless) unitOf(NO_UNIT);
  // null: count items, no column needed; undefined: the board lacks a usable value column.
  const valueColumns = data.boards.map(({ board }): Column | null | undefined => {
    if (!hasValueRef) return null;
    const column = resolveColumn(valueRef, board);
    return column && (unitless || column.type === "number") ? column : undefined;
  });
  // Units before buckets: each bucket registered while planning gets an accumulator per unit.
  for (const column of valueColumns) if (column && !unitless) unitOf(numberUnit(column));
  const buckets = new Buckets(() => {
    for (const u of units) u.accs.push(newAccumulator(fn));
  });
  const boardsWithoutColumn: string[] = [];
  const groupTypes = new Set<string>();
  const plans: BoardPlan[] = [];

  data.boards.forEach(({ board, rows }, b) => {
    const valueColumn = valueColumns[b];
    if (valueColumn === undefined) {
      boardsWithoutColumn.push(board.id);
      return;
    }
    let by: Column | "group" | "board";
    if (groupBy === "group" || groupBy === "board") {
      by = groupBy;
      groupTypes.add(groupBy);
    } else {
      const column = resolveColumn(groupBy, board);
      if (!column) {
        boardsWithoutColumn.push(board.id);
        return;
      }
      by = column;
      groupTypes.add(column.type);
    }
    const codes = bucketCodes(board, by, dateBucket);
    const toBucket = new Int32Array(codes.entries.length).fill(-1);
    for (let e = 0; e < codes.preset; e++) toBucket[e] = buckets.addEntry(codes.entries[e] as BucketEntry);
    plans.push({
      rows,
      codes,
      toBucket,
      values: valueColumn && !unitless ? numberValues(board, valueColumn) : countWeights(board, valueColumn ?? null),
      unitIndex: valueColumn && !unitless ? unitOf(numberUnit(valueColumn)) : 0,
    });
  });

  for (const plan of plans) {
    const accs = units[plan.unitIndex]?.accs;
    if (!accs) continue;
    const { entries, codes, offsets } = plan.codes;
    const bucketOfSlot = (slot: number): number => {
      if (slot === 0) return buckets.empty();
      const known = plan.toBucket[slot - 1] as number;
      return known >= 0 ? known : (plan.toBucket[slot - 1] = buckets.addEntry(entries[slot - 1] as BucketEntry));
    };
    if (fn === "median") {
      // The median needs every value of its bucket, so values go to the buckets one by one.
      forEachSlot(plan, (slot, value) => accumulate(accs[bucketOfSlot(slot)] as Accumulator, value));
      continue;
    }
    const tally = slotTally(entries.length + 1);
    if (offsets === null) tallySingle(plan.rows, codes, plan.values, tally);
    else tallyMulti(plan.rows, codes, offsets, plan.values, tally);
    const met: number[] = [];
    for (let slot = 0; slot < tally.count.length; slot++) if ((tally.count[slot] as number) > 0) met.push(slot);
    met.sort((a, b) => (tally.first[a] as number) - (tally.first[b] as number));
    for (const slot of met) {
      const acc = accs[bucketOfSlot(slot)] as Accumulator;
      acc.count += tally.count[slot] as number;
      acc.sum += tally.sum[slot] as number;
      acc.min = Math.min(acc.min, tally.min[slot] as number);
      acc.max = Math.max(acc.max, tally.max[slot] as number);
    }
  }

  const order = buckets.order(sortModeOf(groupTypes));
  let categories = order.map((i) => buckets.categories[i] as ChartCategory);
  const pie = chartType === "pie" || chartType === "donut";
  let droppedNegative = 0;
  let rawSeries = units.map(({ unit, accs }) => ({
    unit,
    count: accs.reduce((n, a) => n + a.count, 0),
    values: order.map((i) => {
      const v = finishAggregate(fn, accs[i] as Accumulator);
      if (pie && v !== null && v < 0) {
        droppedNegative++;
        return null;
      }
      return v;
    }),
  }));
  const anyData = rawSeries.some((s) => s.count > 0);
  if (rawSeries.length > 1) {
    const withValues = rawSeries.filter((s) => s.count > 0);
    rawSeries = withValues.length > 0 ? withValues : rawSeries.slice(0, 1);
  }
  if (pie) {
    // Slices of nothing only clutter the legend.
    const keep = categories.map((_, c) => rawSeries.some((s) => (s.values[c] ?? 0) > 0));
    categories = categories.filter((_, c) => keep[c]);
    rawSeries = rawSeries.map((s) => ({ ...s, values: s.values.filter((_, c) => keep[c]) }));
  }
  const series: ChartSeries[] = rawSeries.map(({ unit, values }) => ({
    unit,
    values,
    displays: values.map((v) => formatCompact(v, unit)),
    fulls: values.map((v) => formatFull(v, unit)),
    total: cleanNumber(values.reduce<number>((sum, v) => sum + (v ?? 0), 0)),
  }));
  const emptyReason = !anyData ? "no-data" : pie && !series.some((s) => s.total > 0) ? "zero-total" : null;
  return {
    kind: "chart",
    chartType,
    function: fn,
    categories,
    series,
    empty: emptyReason !== null,
    emptyReason,
    droppedNegative,
    boardsWithoutColumn,
    problem: null,
  };
}
