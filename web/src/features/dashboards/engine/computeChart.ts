/**
 * The Chart widget: items bucketed by a column, by group or by board, each bucket holding a
 * count or an aggregate of a number column, one series per unit. Buckets of the same name on
 * different boards merge.
 */
import { type Accumulator, accumulate, finishAggregate, isAggregateFunction, newAccumulator } from "./aggregate";
import type { FilteredData } from "./applyFilters";
import { NO_DAY, calendarDay, formatCalendarDay, mondayOf } from "./calendarDay";
import { dayTextCell, isEmptyCell, numberCell, stringsCell } from "./cellValue";
import { NO_UNIT, type Unit, numberUnit, statusLabels } from "./columnSettings";
import { cleanNumber, formatCompact, formatFull } from "./formatFigure";
import { resolveColumn } from "./resolveColumn";
import type { AggregateFunction, ChartSettings, ChartType, Column, DateBucket, Item } from "./types";

export type ChartCategoryKind = "label" | "person" | "group" | "board" | "date" | "value" | "empty";

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

  empty(): number {
    return this.add(EMPTY_KEY, EMPTY_BUCKET_LABEL, "empty");
  }

  /** Bucket order: insertion, text, number or date order, with "(empty)" always last. */
  order(mode: SortMode): number[] {
    const order = this.categories.map((_, i) => i);
    if (mode === "text") {
      const collator = new Intl.Collator("en-US", { numeric: true, sensitivity: "base" });
      order.sort((a, b) => collator.compare(this.categories[a]?.label ?? "", this.categories[b]?.label ?? ""));
    } else if (mode === "number" || mode === "date") {
      order.sort((a, b) => (this.sortValues[a] ?? 0) - (this.sortValues[b] ?? 0));
    }
    const empty = this.index.get(EMPTY_KEY);
    if (empty === undefined) return order;
    return [...order.filter((i) => i !== empty), empty];
  }
}

type Visitor = (item: Item, visit: (bucket: number) => void) => void;

function dateBucketKey(day: number, bucket: DateBucket): { key: string; label: string; start: number } {
  if (bucket === "week") {
    const monday = mondayOf(day);
    const text = formatCalendarDay(monday);
    return { key: text, label: `Week of ${text}`, start: monday };
  }
  if (bucket === "month") {
    const text = formatCalendarDay(day).slice(0, 7);
    return { key: text, label: text, start: calendarDay(`${text}-01`) };
  }
  const text = formatCalendarDay(day);
  return { key: text, label: text, start: day };
}

function columnVisitor(column: Column, buckets: Buckets, dateBucket: DateBucket): Visitor {
  const id = column.id;
  switch (column.type) {
    case "status": {
      for (const label of statusLabels(column)) buckets.add(label.name, label.name, "label", 0, label.color);
      return (item, visit) => {
        const v = item.values[id];
        visit(typeof v === "string" && v !== "" ? buckets.add(v, v, "label") : buckets.empty());
      };
    }
    case "people":
    case "dropdown": {
      const kind: ChartCategoryKind = column.type === "people" ? "person" : "label";
      return (item, visit) => {
        const values = stringsCell(item.values[id]);
        let seen = 0;
        for (let i = 0; i < values.length; i++) {
          const v = values[i];
          // A person or option listed twice on one item still counts once.
          if (typeof v !== "string" || values.indexOf(v) !== i) continue;
          visit(buckets.add(v, v, kind));
          seen++;
        }
        if (seen === 0) visit(buckets.empty());
      };
    }
    case "date":
    case "timeline": {
      // Keyed by the date's text: a map look-up per item instead of parsing every date.
      const byText = new Map<string, number>();
      const type = column.type;
      return (item, visit) => {
        // A timeline sits in the bucket of its first day.
        const text = dayTextCell(type, item.values[id], "from");
        let b = text === null ? undefined : byText.get(text);
        if (b === undefined) {
          const day = calendarDay(text);
          if (text === null || day === NO_DAY) {
            visit(buckets.empty());
            return;
          }
          const { key, label, start } = dateBucketKey(day, dateBucket);
          b = buckets.add(key, label, "date", start);
          byText.set(text, b);
        }
        visit(b);
      };
    }
    case "number": {
      const byValue = new Map<number, number>();
      return (item, visit) => {
        const v = numberCell(item.values[id]);
        if (v !== v) {
          visit(buckets.empty());
          return;
        }
        let b = byValue.get(v);
        if (b === undefined) {
          const text = String(cleanNumber(v));
          b = buckets.add(text, text, "value", v);
          byValue.set(v, b);
        }
        visit(b);
      };
    }
    case "checkbox": {
      const checked = buckets.add("true", "Checked", "value");
      const unchecked = buckets.add("false", "Unchecked", "value");
      return (item, visit) => visit(item.values[id] === true ? checked : unchecked);
    }
    default:
      return (item, visit) => {
        const v = item.values[id];
        const text = typeof v === "string" ? v : typeof v === "number" ? String(v) : "";
        visit(text === "" ? buckets.empty() : buckets.add(text, text, "value"));
      };
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
  items: readonly Item[];
  visitor: Visitor;
  /** The counted or aggregated column, or null when counting items. */
  valueColumn: Column | null;
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

  data.boards.forEach(({ board, items }, b) => {
    const valueColumn = valueColumns[b];
    if (valueColumn === undefined) {
      boardsWithoutColumn.push(board.id);
      return;
    }
    let visitor: Visitor;
    if (groupBy === "group") {
      groupTypes.add("group");
      const byGroupId = new Map<string, number>();
      for (const [groupId, title] of board.groupTitleById)
        byGroupId.set(groupId, buckets.add(`group:${title}`, title, "group"));
      visitor = (item, visit) => visit(byGroupId.get(item.groupId) ?? buckets.empty());
    } else if (groupBy === "board") {
      groupTypes.add("board");
      const bucket = buckets.add(`board:${board.id}`, board.name, "board");
      visitor = (_item, visit) => visit(bucket);
    } else {
      const column = resolveColumn(groupBy, board);
      if (!column) {
        boardsWithoutColumn.push(board.id);
        return;
      }
      groupTypes.add(column.type);
      visitor = columnVisitor(column, buckets, dateBucket);
    }
    plans.push({
      items,
      visitor,
      valueColumn,
      unitIndex: valueColumn && !unitless ? unitOf(numberUnit(valueColumn)) : 0,
    });
  });

  for (const { items, visitor, valueColumn, unitIndex: u } of plans) {
    const accs = units[u]?.accs;
    if (!accs) continue;
    const countOne = (bucket: number): void => {
      (accs[bucket] as Accumulator).count++;
    };
    if (valueColumn === null) {
      for (let i = 0; i < items.length; i++) visitor(items[i] as Item, countOne);
      continue;
    }
    const id = valueColumn.id;
    if (unitless) {
      for (let i = 0; i < items.length; i++) {
        const item = items[i] as Item;
        if (!isEmptyCell(valueColumn, item.values[id])) visitor(item, countOne);
      }
      continue;
    }
    let value = 0;
    const addValue = (bucket: number): void => accumulate(accs[bucket] as Accumulator, value);
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as Item;
      value = numberCell(item.values[id]);
      if (value === value) visitor(item, addValue);
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
