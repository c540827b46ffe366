/**
 * The Velocity widget (faithful): per sprint, the effort of its done items beside the effort of
 * all items now in it, sprints in time order, and the average completed over the last three.
 */
import { sprintDayText, summariseSprints } from "./summariseSprints";
import { cleanNumber, formatCompact } from "./formatFigure";
import type { FilteredData, SprintSettings, Unit } from "./types";

export interface VelocitySprint {
  name: string;
  start: string | null;
  end: string | null;
  /** Effort of every item now in the sprint. */
  committed: number;
  /** Effort of its done items. */
  completed: number;
  itemCount: number;
  doneCount: number;
}

export interface VelocityResult {
  kind: "velocity";
  sprints: VelocitySprint[];
  /** Mean completed effort of the last three sprints (fewer when there are fewer); null with none. */
  averageCompleted: number | null;
  averageDisplay: string;
  averageOver: string[];
  effortUnit: Unit | null;
  unestimatedCount: number;
  boardsWithoutSprintColumn: string[];
  problem: string | null;
}

export const VELOCITY_AVERAGE_OVER = 3;

export function computeVelocity(data: FilteredData, settings: SprintSettings | undefined): VelocityResult {
  const r = summariseSprints(data, settings);
  const sprints: VelocitySprint[] = r.sprints.map((s, i) => ({
    name: s.name,
    start: sprintDayText(s.start),
    end: sprintDayText(s.end),
    committed: cleanNumber(r.committed[i] as number),
    completed: cleanNumber(r.completed[i] as number),
    itemCount: r.itemCount[i] as number,
    doneCount: r.doneCount[i] as number,
  }));
  const last = sprints.slice(-VELOCITY_AVERAGE_OVER);
  const averageCompleted =
    last.length === 0 ? null : cleanNumber(last.reduce((sum, s) => sum + s.completed, 0) / last.length);
  return {
    kind: "velocity",
    sprints,
    averageCompleted,
    averageDisplay: formatCompact(averageCompleted, r.effortUnit ?? undefined),
    averageOver: last.map((s) => s.name),
    effortUnit: r.effortUnit,
    unestimatedCount: r.unestimatedCount,
    boardsWithoutSprintColumn: r.boardsWithoutSprintColumn,
    problem: r.problem,
  };
}
