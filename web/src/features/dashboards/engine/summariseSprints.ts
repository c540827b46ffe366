/**
 * The shared first pass of the three sprint widgets: per sprint, its span, committed and
 * completed effort and item counts, with the sprints in time order, plus, per board, what a
 * widget needs to read that board's kept items again (its sprint columns and a map from the
 * board's own sprint indexes to the dashboard's). Velocity reads only the totals; Planned-vs-
 * unplanned and Burndown make one more pass over the kept items each.
 *
 * The loops over items are small functions of typed arrays and numbers only: on a filter
 * change each runs once over up to 100,000 items, and a small monomorphic function is
 * optimised by the JIT at once and stays optimised, where a large one is deoptimised and
 * recompiled again and again.
 */
import { NO_DAY, calendarDay, formatCalendarDay } from "./calendarDay";
import { numberUnit } from "./columnSettings";
import { sprintColumns } from "./columnar";
import { builtOnce, mapFor } from "./itemColumns";
import { type LocalTotals, type SprintBoardPart, addKeptItems } from "./loops";
import { resolveColumn } from "./resolveColumn";
import type { FilteredData, SprintSettings, Unit } from "./types";

export interface SprintInfo {
  name: string;
  /** First and last day (day numbers), NO_DAY when unknown. */
  start: number;
  end: number;
  /** Where the span came from: the widget's settings, the items' dates, or nowhere. */
  spanSource: "settings" | "items" | "none";
}

export interface SprintSummary {
  /** Sprints in time order: by start, then end, then name; sprints without dates last. */
  sprints: SprintInfo[];
  /** Per sprint, aligned with `sprints`: effort of all its items (unestimated count 0). */
  committed: Float64Array;
  /** Per sprint: effort of its done items. */
  completed: Float64Array;
  itemCount: Int32Array;
  doneCount: Int32Array;
  parts: SprintBoardPart[];
  /** Items in a sprint whose effort is empty: they count 0. */
  unestimatedCount: number;
  /** The effort columns' unit when they all agree, else null. */
  effortUnit: Unit | null;
  boardsWithoutSprintColumn: string[];
  problem: string | null;
}

/**
 * Summaries per filtered data and sprint settings: Velocity, Planned-vs-unplanned and Burndown
 * usually share their four columns, so a dashboard reads the items once for all three. A new
 * filter result is a new key, so nothing stale survives a filter change.
 */
const cache = new WeakMap<FilteredData, Map<string, SprintSummary>>();

/** The summary of the filtered items (shared between widgets: read it, never write it). */
export function summariseSprints(data: FilteredData, settings: SprintSettings | undefined): SprintSummary {
  const key = JSON.stringify([
    settings?.sprintColumn,
    settings?.effortColumn,
    settings?.doneColumn,
    settings?.dateColumn,
    settings?.sprints,
  ]);
  return builtOnce(mapFor(cache, data), key, () => summarise(data, settings));
}

/** Made once: building a collator costs far more than the handful of comparisons it makes. */
const SPRINT_NAMES = new Intl.Collator("en-US", { numeric: true });

/** Larger than any day, so the first dated item of a sprint always narrows its span. */
const NO_SPAN_FIRST = 2147483647;

function localTotals(n: number): LocalTotals {
  return {
    committed: new Float64Array(n),
    completed: new Float64Array(n),
    items: new Int32Array(n),
    done: new Int32Array(n),
    spanFirst: new Int32Array(n).fill(NO_SPAN_FIRST),
    spanLast: new Int32Array(n).fill(NO_DAY),
  };
}

function emptySummary(problem: string | null, boardsWithoutSprintColumn: string[]): SprintSummary {
  return {
    sprints: [],
    committed: new Float64Array(0),
    completed: new Float64Array(0),
    itemCount: new Int32Array(0),
    doneCount: new Int32Array(0),
    parts: [],
    unestimatedCount: 0,
    effortUnit: null,
    boardsWithoutSprintColumn,
    problem,
  };
}

function summarise(data: FilteredData, settings: SprintSettings | undefined): SprintSummary {
  const boardsWithoutSprintColumn: string[] = [];
  const sprintRef = settings?.sprintColumn;
  if (sprintRef === undefined || sprintRef === null || sprintRef === "")
    return emptySummary("Choose the sprint column", boardsWithoutSprintColumn);

  // Sprints by name, in the order their first kept item is met, with running totals.
  const byName = new Map<string, number>();
  const names: string[] = [];
  const totals: { committed: number; completed: number; items: number; done: number; first: number; last: number }[] =
    [];
  const sprintIndex = (name: string): number => {
    let s = byName.get(name);
    if (s === undefined) {
      s = names.length;
      byName.set(name, s);
      names.push(name);
      totals.push({ committed: 0, completed: 0, items: 0, done: 0, first: Infinity, last: -Infinity });
    }
    return s;
  };

  const parts: SprintBoardPart[] = [];
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
    const local = localTotals(columns.names.length);
    unestimatedCount += addKeptItems(rows, columns, local);
    // For now the dashboard-wide index in first-met order; made the time-order index below.
    const toSprint = new Int32Array(columns.names.length).fill(-1);
    for (let l = 0; l < toSprint.length; l++) {
      if (local.items[l] === 0) continue;
      const s = sprintIndex(columns.names[l] as string);
      toSprint[l] = s;
      const total = totals[s] as (typeof totals)[number];
      total.committed += local.committed[l] as number;
      total.completed += local.completed[l] as number;
      total.items += local.items[l] as number;
      total.done += local.done[l] as number;
      const last = local.spanLast[l] as number;
      if (last === NO_DAY) continue;
      total.first = Math.min(total.first, local.spanFirst[l] as number);
      total.last = Math.max(total.last, last);
    }
    parts.push({ rows, columns, toSprint });
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
    const { first, last } = totals[i] as (typeof totals)[number];
    return first === Infinity
      ? { name, start: NO_DAY, end: NO_DAY, spanSource: "none" }
      : { name, start: first, end: last, spanSource: "items" };
  });
  const order = infos.map((_, i) => i);
  const key = (day: number): number => (day === NO_DAY ? Infinity : day);
  order.sort((a, b) => {
    const x = infos[a] as SprintInfo;
    const y = infos[b] as SprintInfo;
    return key(x.start) - key(y.start) || key(x.end) - key(y.end) || SPRINT_NAMES.compare(x.name, y.name);
  });
  const rank = new Int32Array(order.length);
  order.forEach((first, pos) => {
    rank[first] = pos;
  });
  for (const { toSprint } of parts)
    for (let l = 0; l < toSprint.length; l++)
      if ((toSprint[l] as number) >= 0) toSprint[l] = rank[toSprint[l] as number] as number;

  const n = order.length;
  const summary: SprintSummary = {
    sprints: order.map((i) => infos[i] as SprintInfo),
    committed: new Float64Array(n),
    completed: new Float64Array(n),
    itemCount: new Int32Array(n),
    doneCount: new Int32Array(n),
    parts,
    unestimatedCount,
    effortUnit: effortUnit ?? null,
    boardsWithoutSprintColumn,
    problem: null,
  };
  order.forEach((first, pos) => {
    const total = totals[first] as (typeof totals)[number];
    summary.committed[pos] = total.committed;
    summary.completed[pos] = total.completed;
    summary.itemCount[pos] = total.items;
    summary.doneCount[pos] = total.done;
  });
  return summary;
}

/** A sprint day as `YYYY-MM-DD`, or null when unknown. */
export function sprintDayText(day: number): string | null {
  return day === NO_DAY ? null : formatCalendarDay(day);
}
