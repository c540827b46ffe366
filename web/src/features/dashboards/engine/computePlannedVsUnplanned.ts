/**
 * The Planned-vs-unplanned widget, a documented approximation: with no sprint history, an item
 * counts as planned when it was created on or before its sprint's first day.
 */
import { type PartTotals, addParts } from "./loops";
import { sprintDayText, summariseSprints } from "./summariseSprints";
import { cleanNumber } from "./formatFigure";
import type { FilteredData, SprintSettings } from "./types";

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
  const r = summariseSprints(data, settings);
  const sprints: PlannedSprint[] = r.sprints.map((s) => ({
    name: s.name,
    start: sprintDayText(s.start),
    end: sprintDayText(s.end),
    planned: share(),
    unplanned: share(),
    unknown: share(),
  }));
  const n = r.sprints.length;
  const parts: PartTotals = {
    effort: new Float64Array(n * 3),
    count: new Int32Array(n * 3),
    doneEffort: new Float64Array(n * 3),
    doneCount: new Int32Array(n * 3),
  };
  const starts = Int32Array.from(r.sprints, (s) => s.start);
  for (const part of r.parts) addParts(part, starts, parts);
  const { effort, count, doneEffort, doneCount } = parts;
  sprints.forEach((row, s) => {
    [row.planned, row.unplanned, row.unknown].forEach((target, part) => {
      const at = s * 3 + part;
      target.effort = effort[at] as number;
      target.count = count[at] as number;
      target.doneEffort = doneEffort[at] as number;
      target.doneCount = doneCount[at] as number;
    });
  });
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
