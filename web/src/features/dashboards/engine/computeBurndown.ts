/**
 * The Burndown widget, a documented approximation (Taiga's): with no sprint history, the
 * sprint's current total effort is its scope on every day, and an item burns on the day its
 * date column names.
 */
import { NO_DAY, formatCalendarDay } from "./calendarDay";
import { burnPart } from "./loops";
import { sprintDayText, summariseSprints } from "./summariseSprints";
import { cleanNumber } from "./formatFigure";
import type { BurndownSettings, FilteredData } from "./types";

export const BURNDOWN_NOTE =
  "Approximation (no sprint history): scope is the sprint's current total effort on every day; " +
  "an item burns on the day its date column holds (done items without a date burn on the last day).";

/** Longer spans are cut to this many days (and flagged), so bad dates cannot explode the chart. */
export const BURNDOWN_MAX_DAYS = 400;

export interface BurndownPoint {
  date: string;
  /** Falls linearly from the total on the first day to 0 on the last. */
  ideal: number;
  /** Total minus the effort of done items burned on or before this day. */
  remaining: number;
}

export interface BurndownResult {
  kind: "burndown";
  sprint: string | null;
  /** Every sprint, in time order, for a picker. */
  sprintNames: string[];
  start: string | null;
  end: string | null;
  total: number;
  points: BurndownPoint[];
  /** Effort of done items with no date, burned on the last day. */
  doneWithoutDate: number;
  truncated: boolean;
  note: string;
  problem: string | null;
}

export function computeBurndown(data: FilteredData, settings: BurndownSettings | undefined): BurndownResult {
  const r = summariseSprints(data, settings);
  const sprintNames = r.sprints.map((s) => s.name);
  const base: BurndownResult = {
    kind: "burndown",
    sprint: null,
    sprintNames,
    start: null,
    end: null,
    total: 0,
    points: [],
    doneWithoutDate: 0,
    truncated: false,
    note: BURNDOWN_NOTE,
    problem: r.problem,
  };
  if (r.problem) return base;
  let index = -1;
  if (typeof settings?.sprint === "string") {
    index = sprintNames.indexOf(settings.sprint);
    if (index < 0) return { ...base, problem: `No sprint named ${JSON.stringify(settings.sprint)}` };
  } else {
    for (let i = r.sprints.length - 1; i >= 0 && index < 0; i--) if (r.sprints[i]?.start !== NO_DAY) index = i;
    if (index < 0)
      return { ...base, problem: r.sprints.length === 0 ? "No items are in a sprint" : "No sprint has dates" };
  }
  const info = r.sprints[index];
  if (!info) return base;
  if (info.start === NO_DAY) return { ...base, sprint: info.name, problem: "This sprint has no dates" };

  const fullDays = info.end - info.start + 1;
  const days = Math.min(fullDays, BURNDOWN_MAX_DAYS);
  const end = info.start + days - 1;
  const burned = new Float64Array(days);
  // The sprint's committed effort is its total: the same items' efforts, added in the same order.
  const total = r.committed[index] as number;
  let doneWithoutDate = 0;
  for (const part of r.parts) doneWithoutDate += burnPart(part, index, info.start, end, burned);
  const points: BurndownPoint[] = [];
  let burnedSoFar = 0;
  for (let d = 0; d < days; d++) {
    burnedSoFar += burned[d] as number;
    points.push({
      date: formatCalendarDay(info.start + d),
      ideal: fullDays === 1 ? 0 : cleanNumber((total * (fullDays - 1 - d)) / (fullDays - 1)),
      remaining: cleanNumber(total - burnedSoFar),
    });
  }
  return {
    ...base,
    sprint: info.name,
    start: sprintDayText(info.start),
    end: sprintDayText(info.end),
    total: cleanNumber(total),
    points,
    doneWithoutDate: cleanNumber(doneWithoutDate),
    truncated: days < fullDays,
  };
}
