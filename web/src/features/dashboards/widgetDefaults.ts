/**
 * What a widget added from the menu starts with: a unique id, a title, a size, the first free
 * slot, and settings guessed from the connected boards' columns (a status column to group by,
 * the sprint, effort, done and date columns), so a new widget shows data at once.
 */
import { settingsOf } from "../../shared/api/columnSettings";
import { WIDGET_TYPES, type WidgetType } from "../../shared/api/types.generated";
import type { Board, Column, WidgetConfig } from "./engine/types";
import type { MenuWidgetType } from "./engine/widgetMenu";
import { firstFreeSlot } from "./layout";

/** Every widget type's name; a new type fails to compile until it is named here. */
export const WIDGET_LABELS: Record<WidgetType, string> = {
  numbers: "Numbers",
  chart: "Chart",
  velocity: "Velocity",
  plannedVsUnplanned: "Planned vs unplanned",
  burndown: "Burndown",
  battery: "Battery",
  table: "Table",
  apps: "Apps",
};

/** A widget's name for its type, or the type itself when this version does not know it. */
export function widgetLabel(type: string): string {
  return (WIDGET_TYPES as readonly string[]).includes(type) ? WIDGET_LABELS[type as WidgetType] : type;
}

const SIZES: Record<MenuWidgetType, { w: number; h: number }> = {
  numbers: { w: 3, h: 3 },
  chart: { w: 6, h: 6 },
  velocity: { w: 6, h: 6 },
  plannedVsUnplanned: { w: 6, h: 6 },
  burndown: { w: 6, h: 6 },
};

const ID_PREFIX: Record<MenuWidgetType, string> = {
  numbers: "n",
  chart: "c",
  velocity: "v",
  plannedVsUnplanned: "p",
  burndown: "b",
};

/** A column id as offered in the settings panel: one entry per id across the connected boards. */
/** What defaults and the settings panel read of a board: its columns only. */
export interface BoardColumns {
  board: Pick<Board, "columns">;
}

export interface ColumnOption {
  id: string;
  title: string;
  /** The type where every board having the column agrees; else "mixed". */
  type: string;
  boardCount: number;
}

export function columnOptions(boards: readonly BoardColumns[]): ColumnOption[] {
  const byId = new Map<string, ColumnOption>();
  for (const { board } of boards) {
    for (const column of Array.isArray(board.columns) ? board.columns : []) {
      const seen = byId.get(column.id);
      if (!seen)
        byId.set(column.id, { id: column.id, title: column.title || column.id, type: column.type, boardCount: 1 });
      else {
        seen.boardCount++;
        if (seen.type !== column.type) seen.type = "mixed";
      }
    }
  }
  return [...byId.values()];
}

function allColumns(boards: readonly BoardColumns[]): Column[] {
  return boards.flatMap(({ board }) => (Array.isArray(board.columns) ? board.columns : []));
}

function named(columns: readonly Column[], types: readonly string[], pattern: RegExp): string | undefined {
  return columns.find((c) => types.includes(c.type) && (pattern.test(c.id) || pattern.test(c.title)))?.id;
}

/** The first column of one of `types` whose id or title matches `pattern`, else of those types at all. */
function guess(columns: readonly Column[], types: readonly string[], pattern: RegExp): string | undefined {
  return named(columns, types, pattern) ?? columns.find((c) => types.includes(c.type))?.id;
}

function sprintSettings(columns: readonly Column[]): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  // A sprint column is only guessed by name: any text column is not a sprint.
  const sprint = named(columns, ["text", "status", "dropdown"], /sprint|iteration|cycle/i);
  const effort = guess(columns, ["number"], /effort|point|estimate|size/i);
  const done =
    columns.find((c) => c.type === "status" && settingsOf(c).labels?.some((l) => l.done))?.id ??
    guess(columns, ["status", "checkbox"], /status|done/i);
  const date = guess(columns, ["date", "timeline"], /done|complet|closed|finish/i);
  if (sprint) settings.sprintColumn = sprint;
  if (effort) settings.effortColumn = effort;
  if (done) settings.doneColumn = done;
  if (date) settings.dateColumn = date;
  return settings;
}

function defaultSettings(type: MenuWidgetType, boards: readonly BoardColumns[]): Record<string, unknown> {
  const columns = allColumns(boards);
  switch (type) {
    case "numbers":
      return { function: "count" };
    case "chart":
      return { chartType: "bar", groupBy: guess(columns, ["status"], /status/i) ?? "board", function: "count" };
    default:
      return sprintSettings(columns);
  }
}

export function newWidgetId(type: MenuWidgetType, widgets: readonly WidgetConfig[]): string {
  const ids = new Set(widgets.map((w) => w.id));
  let n = 1;
  while (ids.has(`${ID_PREFIX[type]}${n}`)) n++;
  return `${ID_PREFIX[type]}${n}`;
}

export function newWidget(
  type: MenuWidgetType,
  widgets: readonly WidgetConfig[],
  boards: readonly BoardColumns[],
): WidgetConfig {
  const size = SIZES[type];
  return {
    id: newWidgetId(type, widgets),
    type,
    title: WIDGET_LABELS[type],
    layout: firstFreeSlot(
      widgets.map((w) => w.layout),
      size.w,
      size.h,
    ),
    settings: defaultSettings(type, boards),
  };
}
