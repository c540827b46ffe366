import { describe, expect, test } from "vitest";
import type { WidgetConfig } from "./engine/types";
import { GRID_COLS, cleanLayout, firstFreeSlot, stackedLayout, withGridLayout } from "./layout";

const widget = (id: string, x: number, y: number, w: number, h: number): WidgetConfig => ({
  id,
  type: "numbers",
  layout: { x, y, w, h },
});

describe("firstFreeSlot", () => {
  test("an empty grid places at the origin", () => {
    expect(firstFreeSlot([], 4, 3)).toEqual({ x: 0, y: 0, w: 4, h: 3 });
  });

  test("fills the rest of the first row before going down", () => {
    expect(firstFreeSlot([{ x: 0, y: 0, w: 4, h: 3 }], 4, 3)).toEqual({ x: 4, y: 0, w: 4, h: 3 });
  });

  test("a widget too wide for the row's gap goes below", () => {
    const taken = [
      { x: 0, y: 0, w: 4, h: 3 },
      { x: 4, y: 0, w: 6, h: 3 },
    ];
    expect(firstFreeSlot(taken, 6, 6)).toEqual({ x: 0, y: 3, w: 6, h: 6 });
    expect(
      firstFreeSlot(
        [
          { x: 0, y: 0, w: 4, h: 3 },
          { x: 4, y: 0, w: 6, h: 6 },
        ],
        6,
        6,
      ),
    ).toEqual({ x: 0, y: 6, w: 6, h: 6 });
  });

  test("takes a hole left between widgets", () => {
    const taken = [
      { x: 0, y: 0, w: 12, h: 2 },
      { x: 0, y: 2, w: 3, h: 2 },
      { x: 9, y: 2, w: 3, h: 2 },
    ];
    expect(firstFreeSlot(taken, 6, 2)).toEqual({ x: 3, y: 2, w: 6, h: 2 });
  });

  test("clamps a too-wide widget to the grid", () => {
    expect(firstFreeSlot([], 40, 2)).toEqual({ x: 0, y: 0, w: GRID_COLS, h: 2 });
  });

  test("falls back to the row under everything", () => {
    expect(firstFreeSlot([{ x: 0, y: 0, w: 12, h: 5 }], 12, 1)).toEqual({ x: 0, y: 5, w: 12, h: 1 });
  });
});

describe("cleanLayout", () => {
  test("rounds to non-negative integers with w and h at least 1, inside the grid", () => {
    expect(cleanLayout({ x: 10.6, y: -2, w: 4.2, h: 0 })).toEqual({ x: 8, y: 0, w: 4, h: 1 });
    expect(cleanLayout({ x: Number.NaN, y: 1, w: 99, h: 2 })).toEqual({ x: 0, y: 1, w: 12, h: 2 });
  });
});

describe("withGridLayout", () => {
  const widgets = [widget("a", 0, 0, 4, 3), widget("b", 4, 0, 4, 3)];

  test("returns the same array when nothing moved", () => {
    const grid = widgets.map((w) => ({ i: w.id, ...w.layout }));
    expect(withGridLayout(widgets, grid)).toBe(widgets);
  });

  test("moves only the widgets whose cell changed, keeping the others' identity", () => {
    const next = withGridLayout(widgets, [
      { i: "a", x: 0, y: 0, w: 4, h: 3 },
      { i: "b", x: 6, y: 2, w: 6, h: 4 },
    ]);
    expect(next).not.toBe(widgets);
    expect(next[0]).toBe(widgets[0]);
    expect(next[1]?.layout).toEqual({ x: 6, y: 2, w: 6, h: 4 });
  });
});

describe("stackedLayout", () => {
  test("widgets side by side go one under another, full width, in reading order", () => {
    const grid = [
      { i: "right", x: 4, y: 0, w: 8, h: 3 },
      { i: "below", x: 0, y: 3, w: 6, h: 5 },
      { i: "left", x: 0, y: 0, w: 4, h: 2 },
    ];
    expect(stackedLayout(grid)).toEqual([
      { i: "left", x: 0, y: 0, w: GRID_COLS, h: 2 },
      { i: "right", x: 0, y: 2, w: GRID_COLS, h: 3 },
      { i: "below", x: 0, y: 5, w: GRID_COLS, h: 5 },
    ]);
  });

  test("other fields ride along and the input is left alone", () => {
    const grid = [{ i: "a", x: 3, y: 1, w: 3, h: 2, static: true }];
    expect(stackedLayout(grid)).toEqual([{ i: "a", x: 0, y: 0, w: GRID_COLS, h: 2, static: true }]);
    expect(grid[0]).toEqual({ i: "a", x: 3, y: 1, w: 3, h: 2, static: true });
  });
});
