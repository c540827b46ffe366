/**
 * The shared first pass of the three sprint widgets: one compact record per item that sits in a
 * sprint (its sprint, effort, done flag, date and creation time), kept in flat arrays so the
 * widgets loop over numbers, plus the sprints in time order with their spans. It reads each
 * board's sprint columns (`sprintColumns`, built once per load), so a filter change only copies
 * numbers for the kept rows.
 */
import type { FilteredData } from "./applyFilters";
import { NO_DAY, calendarDay, formatCalendarDay } from "./calendarDay";
import { type Unit, numberUnit } from "./columnSettings";
import { sprintColumns } from "./columnar";
import { resolveColumn } from "./resolveColumn";
import type { SprintSettings } from "./types";

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
  /** The date column's day (a timeline's last day); NO_DAY when the item has none. */
  dateDay: Int32Array;
  /** The day of the items' `createdAt`; NO_DAY when missing. */
  createdDay: Int32Array;
  /** Items in a sprint whose effort is empty: they count 0. */
  unestimatedCount: number;
  /** The effort columns' unit when they all agree, else null. */
  effortUnit: Unit | null;
  boardsWithoutSprintColumn: string[];
  problem: string | null;
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
  for (const b of data.boards) capacity += b.rows.length;
  const sprint = new Int32Array(capacity);
  const effort = new Float64Array(capacity);
  const done = new Uint8Array(capacity);
  const dateDay = new Int32Array(capacity);
  const createdDay = new Int32Array(capacity);
  const boardsWithoutSprintColumn: string[] = [];
  const sprintRef = settings?.sprintColumn;
  const empty = (problem: string | null): SprintRecords => ({
    sprints: [],
    count: 0,
    sprint,
    effort,
    done,
    dateDay,
    createdDay,
    unestimatedCount: 0,
    effortUnit: null,
    boardsWithoutSprintColumn,
    problem,
  });
  if (sprintRef === undefined || sprintRef === null || sprintRef === "") return empty("Choose the sprint column");

  const byName = new Map<string, number>();
  const names: string[] = [];
  // Per sprint: the earliest and latest day of its items' dates (±Infinity while none).
  const firstDay: number[] = [];
  const lastDay: number[] = [];
  const sprintIndex = (name: string): number => {
    let i = byName.get(name);
    if (i === undefined) {
      i = names.length;
      byName.set(name, i);
      names.push(name);
      firstDay.push(Infinity);
      lastDay.push(-Infinity);
    }
    return i;
  };

  let count = 0;
  let unestimatedCount = 0;
  let effortUnit: Unit | null | undefined;
  for (const { board, rows } of data.boards) {
    const sprintColumn = resolveColumn(sprintRef, board);
    if (!sprintColumn) {
      boardsWithoutSprintColumn.push(board.id);
      continue;
    }
    const effortColumn = resolveColumn(settings?.effortColumn, board);
    if (effortColumn?.type === "number") {
      const unit = numberUnit(effortColumn);
      if (effortUnit === undefined) effortUnit = unit;
      else if (effortUnit !== null && effortUnit.unit !== unit.unit) effortUnit = null;
    }
    const columns = sprintColumns(board, {
      sprint: sprintColumn,
      effort: effortColumn,
      done: resolveColumn(settings?.doneColumn, board),
      date: resolveColumn(settings?.dateColumn, board),
    });
    const toSprint = new Int32Array(columns.names.length).fill(-1);
    const { names, sprint: local, effort: efforts, done: dones, firstDay: firsts, lastDay: lasts } = columns;
    const created = columns.createdDay;
    for (let k = 0; k < rows.length; k++) {
      const i = rows[k] as number;
      const l = local[i] as number;
      if (l < 0) continue;
      let s = toSprint[l] as number;
      if (s < 0) s = toSprint[l] = sprintIndex(names[l] as string);
      sprint[count] = s;
      const e = efforts[i] as number;
      if (e === e) effort[count] = e;
      else unestimatedCount++;
      done[count] = dones[i] as number;
      const last = lasts[i] as number;
      dateDay[count] = last;
      if (last !== NO_DAY) {
        const first = firsts[i] as number;
        const lo = first === NO_DAY ? last : first;
        if (lo < (firstDay[s] as number)) firstDay[s] = lo;
        if (last > (lastDay[s] as number)) lastDay[s] = last;
      }
      createdDay[count] = created[i] as number;
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
    const start = firstDay[i] as number;
    const end = lastDay[i] as number;
    return start === Infinity
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
    dateDay,
    createdDay,
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
