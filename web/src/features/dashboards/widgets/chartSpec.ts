/**
 * From engine results to what the chart canvas draws: labels, datasets, tooltips already
 * formatted by the engine's formatter. Pure, so the mapping is tested without a canvas.
 */
import type { BurndownResult } from "../engine/computeBurndown";
import type { ChartResult } from "../engine/computeChart";
import type { PlannedVsUnplannedResult } from "../engine/computePlannedVsUnplanned";
import type { VelocityResult } from "../engine/computeVelocity";
import { formatFull } from "../engine/formatFigure";
import type { Unit } from "../engine/types";

export interface ChartDataset {
  label: string;
  data: (number | null)[];
  /** Full values for the tooltip, aligned with `data`. */
  tooltips: string[];
  color: string;
  /** Per-point colours (pie slices, status-coloured bars). */
  colors?: string[];
  type?: "bar" | "line";
  dashed?: boolean;
  stack?: string;
}

export interface ChartSpec {
  kind: "bar" | "line" | "pie" | "doughnut";
  horizontal: boolean;
  stacked: boolean;
  legend: boolean;
  labels: string[];
  datasets: ChartDataset[];
  ariaLabel: string;
}

export const PALETTE = [
  "#4c6ef5",
  "#12b886",
  "#fab005",
  "#fa5252",
  "#7950f2",
  "#15aabf",
  "#fd7e14",
  "#82c91e",
  "#e64980",
  "#868e96",
];

function paletteColor(i: number): string {
  return PALETTE[i % PALETTE.length] as string;
}

function unitName(unit: Unit): string {
  return unit.unit === "" ? "" : ` (${unit.unit})`;
}

/** The Chart widget. `personName` names a member id from the member directory. */
export function chartWidgetSpec(result: ChartResult, personName: (id: string) => string): ChartSpec {
  const labels = result.categories.map((c) => (c.kind === "person" ? personName(c.label) : c.label));
  const round = result.chartType === "pie" || result.chartType === "donut";
  const categoryColors = result.categories.map((c, i) => c.color ?? (c.kind === "empty" ? "#ced4da" : paletteColor(i)));
  const single = result.series.length === 1;
  const valueName = result.function === "count" ? "Items" : result.function;
  return {
    kind: round ? (result.chartType === "pie" ? "pie" : "doughnut") : result.chartType === "line" ? "line" : "bar",
    horizontal: result.chartType === "bar",
    stacked: false,
    legend: round || result.series.length > 1,
    labels,
    datasets: result.series.map((s, i) => ({
      label: `${valueName}${unitName(s.unit)}`,
      data: s.values,
      tooltips: s.fulls,
      color: paletteColor(i),
      colors: round || (single && result.chartType !== "line") ? categoryColors : undefined,
    })),
    ariaLabel: `${result.chartType} chart of ${labels.length} buckets`,
  };
}

function sprintTooltips(values: readonly number[], unit: Unit | null | undefined): string[] {
  return values.map((v) => formatFull(v, unit ?? undefined));
}

export function velocitySpec(result: VelocityResult): ChartSpec {
  const labels = result.sprints.map((s) => s.name);
  const committed = result.sprints.map((s) => s.committed);
  const completed = result.sprints.map((s) => s.completed);
  const datasets: ChartDataset[] = [
    { label: "Committed", data: committed, tooltips: sprintTooltips(committed, result.effortUnit), color: "#adb5bd" },
    { label: "Completed", data: completed, tooltips: sprintTooltips(completed, result.effortUnit), color: "#12b886" },
  ];
  if (result.averageCompleted !== null) {
    const average = result.sprints.map(() => result.averageCompleted as number);
    datasets.push({
      label: `Average of last ${result.averageOver.length}`,
      data: average,
      tooltips: average.map(() => result.averageDisplay),
      color: "#4c6ef5",
      type: "line",
      dashed: true,
    });
  }
  return {
    kind: "bar",
    horizontal: false,
    stacked: false,
    legend: true,
    labels,
    datasets,
    ariaLabel: "Velocity per sprint",
  };
}

export function plannedSpec(result: PlannedVsUnplannedResult): ChartSpec {
  const labels = result.sprints.map((s) => s.name);
  const part = (name: "planned" | "unplanned" | "unknown") => result.sprints.map((s) => s[name].effort);
  const planned = part("planned");
  const unplanned = part("unplanned");
  const unknown = part("unknown");
  const datasets: ChartDataset[] = [
    { label: "Planned", data: planned, tooltips: sprintTooltips(planned, null), color: "#4c6ef5", stack: "s" },
    { label: "Unplanned", data: unplanned, tooltips: sprintTooltips(unplanned, null), color: "#fd7e14", stack: "s" },
  ];
  if (unknown.some((v) => v !== 0)) {
    datasets.push({
      label: "Unknown",
      data: unknown,
      tooltips: sprintTooltips(unknown, null),
      color: "#ced4da",
      stack: "s",
    });
  }
  return {
    kind: "bar",
    horizontal: false,
    stacked: true,
    legend: true,
    labels,
    datasets,
    ariaLabel: "Planned and unplanned effort per sprint",
  };
}

export function burndownSpec(result: BurndownResult): ChartSpec {
  const labels = result.points.map((p) => p.date);
  const ideal = result.points.map((p) => p.ideal);
  const remaining = result.points.map((p) => p.remaining);
  return {
    kind: "line",
    horizontal: false,
    stacked: false,
    legend: true,
    labels,
    datasets: [
      { label: "Ideal", data: ideal, tooltips: sprintTooltips(ideal, null), color: "#adb5bd", dashed: true },
      { label: "Remaining", data: remaining, tooltips: sprintTooltips(remaining, null), color: "#fa5252" },
    ],
    ariaLabel: `Burndown of ${result.sprint ?? "no sprint"}`,
  };
}
