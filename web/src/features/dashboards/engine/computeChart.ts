/**
 * The Chart widget: items bucketed by a column, by group or by board, each bucket holding a
 * count or an aggregate of a number column, one series per unit. Buckets of the same name on
 * different boards merge.
 */
import { type Accumulator, accumulate, finishAggregate, isAggregateFunction, newAccumulator } from "./aggregate";
import { bucketTally, tallyByBuckets } from "./loops";
import { type BucketEntry, type SlotBuckets, slotBuckets, slotNumbers, slotWeights } from "./columnar";
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
  slots: SlotBuckets;
  /** Per entry of `slots.entries`: its bucket, or −1 until an item first falls into it. */
  toBucket: Int32Array;
  /** Per item, the code its value is read at: `valueOfSlot` at code + 1 is the aggregated number. */
  valueCodes: Int32Array;
  /** Per slot: the number, or for count 1; NaN where the item is left out. */
  valueOfSlot: Float64Array;
  unitIndex: number;
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

/** Calls `add` with each kept row's bucket (0: empty, else entry + 1) and value, in row order. */
function forEachBucket(plan: BoardPlan, add: (bucketSlot: number, value: number) => void): void {
  const { rows, valueCodes, valueOfSlot } = plan;
  const { codes, from, buckets } = plan.slots;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k] as number;
    const value = valueOfSlot[(valueCodes[row] as number) + 1] as number;
    if (value !== value) continue;
    const slot = (codes[row] as number) + 1;
    const to = from[slot + 1] as number;
    for (let j = from[slot] as number; j < to; j++) add(buckets[j] as number, value);
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
    const slots = slotBuckets(board, by, dateBucket);
    const toBucket = new Int32Array(slots.entries.length).fill(-1);
    for (let e = 0; e < slots.preset; e++) toBucket[e] = buckets.addEntry(slots.entries[e] as BucketEntry);
    // Count with no column counts every item: its value is 1 whatever slot it is in.
    const values = valueColumn
      ? {
          valueCodes: board.items.coded(valueColumn.id).codes,
          valueOfSlot: unitless ? slotWeights(board, valueColumn) : slotNumbers(board, valueColumn),
        }
      : { valueCodes: slots.codes, valueOfSlot: new Float64Array(slots.from.length - 1).fill(1) };
    plans.push({
      rows,
      slots,
      toBucket,
      ...values,
      unitIndex: valueColumn && !unitless ? unitOf(numberUnit(valueColumn)) : 0,
    });
  });

  for (const plan of plans) {
    const accs = units[plan.unitIndex]?.accs;
    if (!accs) continue;
    const { entries } = plan.slots;
    const bucketOf = (bucketSlot: number): number => {
      if (bucketSlot === 0) return buckets.empty();
      const known = plan.toBucket[bucketSlot - 1] as number;
      return known >= 0
        ? known
        : (plan.toBucket[bucketSlot - 1] = buckets.addEntry(entries[bucketSlot - 1] as BucketEntry));
    };
    if (fn === "median") {
      // The median needs every value of its bucket, so values go to the buckets one by one.
      forEachBucket(plan, (bucketSlot, value) => accumulate(accs[bucketOf(bucketSlot)] as Accumulator, value));
      continue;
    }
    const { codes, from, buckets: slotLists, widest } = plan.slots;
    const t = bucketTally(entries.length + 1);
    tallyByBuckets(plan.rows, codes, from, slotLists, widest + 1, plan.valueCodes, plan.valueOfSlot, t);
    // Buckets come to the chart in the order the kept rows first meet them.
    const met: number[] = [];
    for (let b = 0; b < t.count.length; b++) if ((t.count[b] as number) > 0) met.push(b);
    met.sort((x, y) => (t.first[x] as number) - (t.first[y] as number));
    for (const b of met) {
      const acc = accs[bucketOf(b)] as Accumulator;
      acc.count += t.count[b] as number;
      acc.sum += t.sum[b] as number;
      acc.min = Math.min(acc.min, t.min[b] as number);
      acc.max = Math.max(acc.max, t.max[b] as number);
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
