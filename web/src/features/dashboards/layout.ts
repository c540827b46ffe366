/**
 * Grid placement in the contract's integer units: a 12-column grid (the contract's example,
 * 4 + 8 columns, fills one row of it), rows 50 px high. New widgets go in the first free slot
 * scanning rows top to bottom, left to right.
 */
import type { WidgetConfig, WidgetLayout } from "./engine/types";

export const GRID_COLS = 12;
export const ROW_HEIGHT = 50;
export const GRID_MARGIN: [number, number] = [12, 12];

function overlaps(a: WidgetLayout, b: WidgetLayout): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** The top-most, then left-most position where a `w` × `h` widget touches no other. */
export function firstFreeSlot(taken: readonly WidgetLayout[], w: number, h: number, cols = GRID_COLS): WidgetLayout {
  const width = Math.max(1, Math.min(Math.floor(w), cols));
  const height = Math.max(1, Math.floor(h));
  const bottom = taken.reduce((max, l) => Math.max(max, l.y + l.h), 0);
  for (let y = 0; y <= bottom; y++) {
    for (let x = 0; x + width <= cols; x++) {
      const candidate = { x, y, w: width, h: height };
      if (!taken.some((l) => overlaps(candidate, l))) return candidate;
    }
  }
  return { x: 0, y: bottom, w: width, h: height };
}

/** A layout the contract accepts: four non-negative integers, w and h at least 1, inside the grid. */
export function cleanLayout(layout: Partial<WidgetLayout> | undefined, cols = GRID_COLS): WidgetLayout {
  const int = (v: unknown, min: number) =>
    typeof v === "number" && Number.isFinite(v) ? Math.max(min, Math.round(v)) : min;
  const w = Math.min(int(layout?.w, 1), cols);
  return { x: Math.min(int(layout?.x, 0), cols - w), y: int(layout?.y, 0), w, h: int(layout?.h, 1) };
}

export function sameLayout(a: WidgetLayout, b: WidgetLayout): boolean {
  return a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
}

/**
 * The widgets with the grid's positions (`i` is the widget id). Unchanged widgets keep their
 * identity, and the same array comes back when nothing moved, so a no-op layout event neither
 * recomputes a widget nor triggers a save.
 */
export function withGridLayout(
  widgets: readonly WidgetConfig[],
  grid: readonly { i: string; x: number; y: number; w: number; h: number }[],
): readonly WidgetConfig[] {
  const byId = new Map(grid.map((g) => [g.i, g]));
  let changed = false;
  const next = widgets.map((widget) => {
    const g = byId.get(widget.id);
    if (!g) return widget;
    const layout = cleanLayout(g);
    if (sameLayout(layout, widget.layout)) return widget;
    changed = true;
    return { ...widget, layout };
  });
  return changed ? next : widgets;
}

/** Below this width a grid of 12 columns leaves a third-width widget too narrow to read. */
export const NARROW_GRID_PX = 600;

/**
 * The layout a narrow screen draws: every widget the grid's full width, one under another in
 * reading order (top to bottom, then left to right), each keeping its height. Only drawn, never
 * saved: the desktop layout stays as it was arranged.
 */
export function stackedLayout<T extends { i: string; x: number; y: number; w: number; h: number }>(
  layout: readonly T[],
  cols = GRID_COLS,
): T[] {
  let y = 0;
  return [...layout]
    .sort((a, b) => a.y - b.y || a.x - b.x)
    .map((item) => {
      const placed = { ...item, x: 0, y, w: cols };
      y += item.h;
      return placed;
    });
}
