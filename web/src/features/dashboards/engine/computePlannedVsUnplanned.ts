/**
 * The Planned-vs-unplanned widget, a documented approximation: with no sprint history, an item
 * counts as planned when it was created on or before its sprint's first day.
 */
import type { FilteredData } from "./applyFilters";
import { NO_DAY } from "./calendarDay";
import { type SprintInfo, extractSprintRecords, sprintDayText } from "./extractSprintRecords";
import { cleanNumber } from "./formatFigure";
import type { SprintSettings } from "./types";

export const PLANNED_VS_UNPLANNED_NOTE =
  "Approximation (no sprint history): planned = created on or before the sprint's first day, " +
  "unplanned = created after it. Items moved between sprints count only in their current sprint.";

export interface EffortShare {
  effort: number;
  count: number;
  doneEffort: number;
  doneCount: number;
}

export interface PlannedSprint {
  name: string;
  start: string | null;
  end: string | null;
  planned: EffortShare;
  unplanned: EffortShare;
  /** Items that cannot be placed: the sprint has no start, or the item no creation date. */
  unknown: EffortShare;
}

export interface PlannedVsUnplannedResult {
  kind: "plannedVsUnplanned";
  sprints: PlannedSprint[];
  note: string;
  unestimatedCount: number;
  boardsWithoutSprintColumn: string[];
  problem: string | null;
}

function share(): EffortShare {
  return { effort: 0, count: 0, doneEffort: 0, doneCount: 0 };
}

export function computePlannedVsUnplanned(
  data: FilteredData,
  settings: SprintSettings | undefined,
): PlannedVsUnplannedResult {
  const r = extractSprintRecords(data, settings);
  const sprints: PlannedSprint[] = r.sprints.map((s) => ({
    name: s.name,
    start: sprintDayText(s.start),
    end: sprintDayText(s.end),
    planned: share(),
    unplanned: share(),
    unknown: share(),
  }));
  for (let i = 0; i < r.count; i++) {
    const s = r.sprint[i] as number;
    const row = sprints[s];
    if (!row) continue;
    const created = r.createdDay[i] as number;
    const start = (r.sprints[s] as SprintInfo).start;
    const target =
      start === NO_DAY || created === NO_DAY ? row.unknown : created <= start ? row.planned : row.unplanned;
    const e = r.effort[i] as number;
    target.effort += e;
    target.count++;
    if (r.done[i] === 1) {
      target.doneEffort += e;
      target.doneCount++;
    }
  }
  for (const row of sprints) {
    for (const part of [row.planned, row.unplanned, row.unknown]) {
      part.effort = cleanNumber(part.effort);
      part.doneEffort = cleanNumber(part.doneEffort);
    }
  }
  return {
    kind: "plannedVsUnplanned",
    sprints,
    note: PLANNED_VS_UNPLANNED_NOTE,
    unestimatedCount: r.unestimatedCount,
    boardsWithoutSprintColumn: r.boardsWithoutSprintColumn,
    problem: r.problem,
  };
}
