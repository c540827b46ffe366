/**
 * One entry point from a widget's saved config to its result, and the whole dashboard at once
 * (filters applied once, shared by every widget).
 */
import type { WidgetType } from "../../../shared/api/types.generated";
import { applyFilters } from "./applyFilters";
import { type AppsResult, computeApps } from "./computeApps";
import { type BatteryResult, computeBattery } from "./computeBattery";
import { type BurndownResult, computeBurndown } from "./computeBurndown";
import { type ChartResult, computeChart } from "./computeChart";
import { type NumbersResult, computeNumbers } from "./computeNumbers";
import { type PlannedVsUnplannedResult, computePlannedVsUnplanned } from "./computePlannedVsUnplanned";
import { type TableResult, computeTable } from "./computeTable";
import { type VelocityResult, computeVelocity } from "./computeVelocity";
import type { DashboardFilters, FilteredData, FilterReport, PreparedBoard, ReadField, WidgetConfig } from "./types";

export interface UnknownWidgetResult {
  kind: "unknown";
  type: string;
}

export type WidgetResult =
  | NumbersResult
  | ChartResult
  | VelocityResult
  | PlannedVsUnplannedResult
  | BurndownResult
  | BatteryResult
  | TableResult
  | AppsResult
  | UnknownWidgetResult;

/** Each widget type's computation: a type the generated list gains fails to compile until it is here. */
const COMPUTE: Record<WidgetType, (data: FilteredData, settings: Record<string, unknown>) => WidgetResult> = {
  numbers: computeNumbers,
  chart: computeChart,
  velocity: computeVelocity,
  plannedVsUnplanned: computePlannedVsUnplanned,
  burndown: computeBurndown,
  battery: computeBattery,
  table: computeTable,
  apps: () => computeApps(),
};

/**
 * The item fields a board's read must carry for these widgets (`fields=` of the full read):
 * every widget reads values, groups and creation days; only a table shows an item's id and
 * name, which on a board of batch-made items are most of its bytes. `undefined`: all of them.
 */
export function itemFieldsFor(widgets: readonly WidgetConfig[]): readonly ReadField[] | undefined {
  return widgets.some((w) => w.type === "table") ? undefined : FIGURE_FIELDS;
}

const FIGURE_FIELDS: readonly ReadField[] = ["groupId", "createdAt", "values"];

function isWidgetType(type: string): type is WidgetType {
  return Object.hasOwn(COMPUTE, type);
}

export function computeWidget(data: FilteredData, widget: WidgetConfig): WidgetResult {
  const settings = typeof widget.settings === "object" && widget.settings !== null ? widget.settings : {};
  if (!isWidgetType(widget.type)) return { kind: "unknown", type: String(widget.type) };
  return COMPUTE[widget.type](data, settings);
}

export interface DashboardResults {
  report: FilterReport;
  /** Keyed by widget id. */
  widgets: Map<string, WidgetResult>;
}

/**
 * Builds every column read the filters and widgets take from one board, without keeping any
 * result: boards arrive one by one, so this work is done while later boards are still on the
 * network, and the pass over all boards after the last one only loops over typed arrays.
 */
export function deriveForView(
  board: PreparedBoard,
  filters: DashboardFilters | null | undefined,
  widgets: readonly WidgetConfig[],
): void {
  const filtered = applyFilters([board], filters);
  // Widgets read their columns before looping over rows, so no rows builds the reads alone.
  const data = { ...filtered, boards: filtered.boards.map((b) => ({ ...b, rows: NO_ROWS })) };
  for (const widget of widgets) computeWidget(data, widget);
}

const NO_ROWS = new Uint32Array(0);

export function computeDashboard(
  boards: readonly PreparedBoard[],
  filters: DashboardFilters | null | undefined,
  widgets: readonly WidgetConfig[],
): DashboardResults {
  const data = applyFilters(boards, filters);
  return { report: data.report, widgets: new Map(widgets.map((w) => [w.id, computeWidget(data, w)])) };
}
