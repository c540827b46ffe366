/**
 * The shared first pass of the three sprint widgets: one compact record per item that sits in a
 * sprint (its sprint, effort, done flag, date and creation time), kept in flat arrays so the
 * widgets loop over numbers, plus the sprints in time order with their spans. Dates stay
 * `YYYY-MM-DD` text, compared as strings; only the few a widget needs as days are parsed.
 */
import type { FilteredData } from "./applyFilters";
import { NO_DAY, calendarDay, dayText, formatCalendarDay } from "./calendarDay";
import { dayTextCell, numberCell } from "./cellValue";
import { type Unit, doneLabelNames, numberUnit } from "./columnSettings";
import { resolveColumn } from "./resolveColumn";
import type { Column, Item, SprintSettings } from "./types";

export interface SprintInfo {
  name: string;
  /** First and last day (day numbers), NO_DAY when unknown. */
  start: number;
  end: number;
  /** Where the span came from: the widget's settings, the items' dates, or nowhere. */
  spanSource: "settings" | "items" | "none";
}

export interface SprintRecords {
  /** Sprints in time order: by start, then end, then name; sprints without dates last. */
  sprints: SprintInfo[];
  count: number;
  /** Per record: index into `sprints`. */
  sprint: Int32Array;
  effort: Float64Array;
  done: Uint8Array;
  /** The date column's `YYYY-MM-DD` (a timeline's last day); null when the item has none. */
  dateText: (string | null)[];
  /** The items' `createdAt` (`""` when missing). */
  createdAt: string[];
  /** Items in a sprint whose effort is empty: they count 0. */
  unestimatedCount: number;
  /** The effort columns' unit when they all agree, else null. */
  effortUnit: Unit | null;
  boardsWithoutSprintColumn: string[];
  problem: string | null;
}

/** The sprint an item names: text, a status label, or the first option of a dropdown. */
function sprintName(value: unknown): string | undefined {
  let v = value;
  if (Array.isArray(v)) v = v[0];
  if (typeof v === "number") return String(v);
  if (typeof v !== "string") return undefined;
  const name = v.trim();
  return name === "" ? undefined : name;
}

type DoneTest = (value: unknown) => boolean;

/** A status column is done on a `done: true` label, a checkbox when ticked, a date when set. */
function doneTest(column: Column | undefined): DoneTest {
  if (!column) return () => false;
  switch (column.type) {
    case "status": {
      const done = doneLabelNames(column);
      // Usually one label is done; `===` is cheaper than a set look-up.
      if (done.size === 1) {
        const [only] = done;
        return (v) => v === only;
      }
      return (v) => typeof v === "string" && done.has(v);
    }
    case "checkbox":
      return (v) => v === true;
    case "date":
    case "timeline": {
      const type = column.type;
      return (v) => dayTextCell(type, v, "to") !== null;
    }
    default:
      return () => false;
  }
}

function isDateColumn(column: Column | undefined): column is Column {
  return column !== undefined && (column.type === "date" || column.type === "timeline");
}

/**
 * Records per filtered data and sprint settings: Velocity, Planned-vs-unplanned and Burndown
 * usually share their four columns, so a dashboard reads the items once for all three. A new
 * filter result is a new key, so nothing stale survives a filter change.
 */
const cache = new WeakMap<FilteredData, Map<string, SprintRecords>>();

/** The records of the filtered items (shared between widgets: read them, never write them). */
export function extractSprintRecords(data: FilteredData, settings: SprintSettings | undefined): SprintRecords {
  const key = JSON.stringify([
    settings?.sprintColumn,
    settings?.effortColumn,
    settings?.doneColumn,
    settings?.dateColumn,
    settings?.sprints,
  ]);
  let byKey = cache.get(data);
  if (!byKey) {
    byKey = new Map();
    cache.set(data, byKey);
  }
  let records = byKey.get(key);
  if (!records) {
    records = readSprintRecords(data, settings);
    byKey.set(key, records);
  }
  return records;
}

function readSprintRecords(data: FilteredData, settings: SprintSettings | undefined): SprintRecords {
  let capacity = 0;
  for (const b of data.boards) capacity += b.items.length;
  const sprint = new Int32Array(capacity);
  const effort = new Float64Array(capacity);
  const done = new Uint8Array(capacity);
  const dateText: (string | null)[] = new Array<string | null>(capacity).fill(null);
  const createdAt: string[] = new Array<string>(capacity).fill("");
  const boardsWithoutSprintColumn: string[] = [];
  const sprintRef = settings?.sprintColumn;
  const empty = (problem: string | null): SprintRecords => ({
    sprints: [],
    count: 0,
    sprint,
    effort,
    done,
    dateText,
    createdAt,
    unestimatedCount: 0,
    effortUnit: null,
    boardsWithoutSprintColumn,
    problem,
  });
  if (sprintRef === undefined || sprintRef === null || sprintRef === "") return empty("Choose the sprint column");

  const byName = new Map<string, number>();
  const names: string[] = [];
  const firstText: (string | null)[] = [];
  const lastText: (string | null)[] = [];
  const sprintIndex = (name: string): number => {
    let i = byName.get(name);
    if (i === undefined) {
      i = names.length;
      byName.set(name, i);
      names.push(name);
      firstText.push(null);
      lastText.push(null);
    }
    return i;
  };

  let count = 0;
  let unestimatedCount = 0;
  let effortUnit: Unit | null | undefined;
  for (const { board, items } of data.boards) {
    const sprintColumn = resolveColumn(sprintRef, board);
    if (!sprintColumn) {
      boardsWithoutSprintColumn.push(board.id);
      continue;
    }
    const effortColumn = resolveColumn(settings?.effortColumn, board);
    const effortId = effortColumn?.type === "number" ? effortColumn.id : null;
    if (effortColumn?.type === "number") {
      const unit = numberUnit(effortColumn);
      if (effortUnit === undefined) effortUnit = unit;
      else if (effortUnit !== null && effortUnit.unit !== unit.unit) effortUnit = null;
    }
    const doneColumn = resolveColumn(settings?.doneColumn, board);
    const doneId = doneColumn?.id;
    const isDone = doneTest(doneColumn);
    const dateColumn = resolveColumn(settings?.dateColumn, board);
    const dateId = isDateColumn(dateColumn) ? dateColumn.id : null;
    const isTimeline = dateColumn?.type === "timeline";
    const sprintId = sprintColumn.id;
    // Most items repeat a few sprint values: look the raw value up before trimming it.
    const rawIndex = new Map<unknown, number>();
    for (let i = 0; i < items.length; i++) {
      const item = items[i] as Item;
      const values = item.values;
      const raw = values[sprintId];
      let s = rawIndex.get(raw);
      if (s === undefined) {
        const name = sprintName(raw);
        if (name === undefined) continue;
        s = sprintIndex(name);
        if (typeof raw === "string") rawIndex.set(raw, s);
      }
      sprint[count] = s;
      const e = effortId === null ? Number.NaN : numberCell(values[effortId]);
      if (e === e) effort[count] = e;
      else unestimatedCount++;
      done[count] = doneId !== undefined && isDone(values[doneId]) ? 1 : 0;
      if (dateId !== null) {
        const v = values[dateId];
        const last = isTimeline ? dayTextCell("timeline", v, "to") : dayText(v);
        if (last !== null) {
          const first = isTimeline ? (dayTextCell("timeline", v, "from") as string) : last;
          dateText[count] = last;
          const lo = firstText[s];
          if (lo === null || lo === undefined || first < lo) firstText[s] = first;
          const hi = lastText[s];
          if (hi === null || hi === undefined || last > hi) lastText[s] = last;
        }
      }
      createdAt[count] = typeof item.createdAt === "string" ? item.createdAt : "";
      count++;
    }
  }

  const listed = new Map<string, { start: number; end: number }>();
  for (const s of Array.isArray(settings?.sprints) ? settings.sprints : []) {
    if (!s || typeof s.name !== "string") continue;
    const start = calendarDay(s.start);
    const end = calendarDay(s.end);
    if (start === NO_DAY || end === NO_DAY || end < start) continue;
    listed.set(s.name, { start, end });
    sprintIndex(s.name);
  }

  const infos: SprintInfo[] = names.map((name, i) => {
    const fixed = listed.get(name);
    if (fixed) return { name, start: fixed.start, end: fixed.end, spanSource: "settings" };
    const start = calendarDay(firstText[i]);
    const end = calendarDay(lastText[i]);
    return start === NO_DAY || end === NO_DAY
      ? { name, start: NO_DAY, end: NO_DAY, spanSource: "none" }
      : { name, start, end, spanSource: "items" };
  });
  const collator = new Intl.Collator("en-US", { numeric: true });
  const order = infos.map((_, i) => i);
  const key = (day: number): number => (day === NO_DAY ? Infinity : day);
  order.sort((a, b) => {
    const x = infos[a] as SprintInfo;
    const y = infos[b] as SprintInfo;
    return key(x.start) - key(y.start) || key(x.end) - key(y.end) || collator.compare(x.name, y.name);
  });
  const rank = new Int32Array(order.length);
  order.forEach((old, pos) => {
    rank[old] = pos;
  });
  for (let r = 0; r < count; r++) sprint[r] = rank[sprint[r] as number] as number;

  return {
    sprints: order.map((i) => infos[i] as SprintInfo),
    count,
    sprint,
    effort,
    done,
    dateText,
    createdAt,
    unestimatedCount,
    effortUnit: effortUnit ?? null,
    boardsWithoutSprintColumn,
    problem: null,
  };
}

/** A sprint day as `YYYY-MM-DD`, or null when unknown. */
export function sprintDayText(day: number): string | null {
  return day === NO_DAY ? null : formatCalendarDay(day);
}
