/**
 * Proves the chart renderer's geometry: round axis ticks from 0, bars grouped and stacked in
 * their bands, horizontal bars, line points with gaps at nulls, lines over bars in mixed charts,
 * pie slices that skip zeros, category labels that never overlap and are cut with an ellipsis,
 * legends that wrap, and a pointer position resolved to the figure under it.
 */
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import {
  chartLayout,
  figureOrder,
  hitTest,
  labelStride,
  legendRows,
  linearScale,
  niceTicks,
  tickLabel,
  tooltipText,
  tooltipTitle,
  truncate,
  valueExtent,
} from "./chartLayout";
import type { ChartDataset, ChartSpec } from "./chartSpec";

/** Every character 6 px wide: a stand-in for the canvas's measureText. */
const measure = (text: string) => text.length * 6;

function dataset(label: string, data: (number | null)[], extra: Partial<ChartDataset> = {}): ChartDataset {
  return { label, data, tooltips: data.map((v) => `${v ?? ""} pts`), color: "#123456", ...extra };
}

function spec(extra: Partial<ChartSpec>): ChartSpec {
  return {
    kind: "bar",
    horizontal: false,
    stacked: false,
    legend: false,
    labels: [],
    datasets: [],
    ariaLabel: "chart",
    ...extra,
  };
}

const figure = fc.double({ min: -1e9, max: 1e9, noNaN: true }).map((v) => (Math.abs(v) < 1e-6 ? 0 : v));

describe("niceTicks", () => {
  test("start at 0 and step by 1, 2 or 5 × 10^n, covering the maximum", () => {
    expect(niceTicks(0, 87, 5)).toEqual({ min: 0, max: 100, step: 20, values: [0, 20, 40, 60, 80, 100] });
    expect(niceTicks(3, 7, 5).values).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(0, 0.3, 4).values).toEqual([0, 0.1, 0.2, 0.3]);
  });

  test("an all-zero axis still has a range, and negatives extend below 0", () => {
    expect(niceTicks(0, 0, 5).values).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    const t = niceTicks(-12, 30, 5);
    expect(t.min).toBe(-20);
    expect(t.max).toBe(30);
    expect(t.values).toContain(0);
  });

  test("for any range: 0 included, the range covered, a nice step, not too many ticks", () => {
    fc.assert(
      // Figures under a millionth are rounding noise, drawn as 0.
      fc.property(figure, figure, fc.integer({ min: 2, max: 12 }), (a, b, n) => {
        const t = niceTicks(Math.min(a, b), Math.max(a, b), n);
        expect(t.values).toContain(0);
        expect(t.min).toBeLessThanOrEqual(Math.min(a, b, 0) + t.step * 1e-9);
        // Covered up to rounding noise: a billionth of a step.
        expect(t.max).toBeGreaterThanOrEqual(Math.max(a, b, 0) - t.step * 1e-9);
        const mantissa = t.step / 10 ** Math.floor(Math.log10(t.step));
        expect([1, 2, 5, 10].some((m) => Math.abs(mantissa - m) < 1e-9)).toBe(true);
        expect(t.values.length - 1).toBeLessThanOrEqual(2 * n + 1);
      }),
    );
  });

  test("labels are compact", () => {
    expect(tickLabel(0.30000000000000004)).toBe("0.3");
    expect(tickLabel(25_000)).toBe("25k");
    expect(tickLabel(1_500_000)).toBe("1.5M");
    expect(tickLabel(800)).toBe("800");
  });
});

test("a linear scale maps the ends and runs backwards for the y axis", () => {
  const y = linearScale(0, 100, 200, 0);
  expect(y(0)).toBe(200);
  expect(y(100)).toBe(0);
  expect(y(25)).toBe(150);
});

describe("bars", () => {
  test("grouped datasets sit side by side within their category's band, heights to scale", () => {
    const l = chartLayout(
      spec({ labels: ["A", "B"], datasets: [dataset("x", [10, 20]), dataset("y", [5, 0])] }),
      400,
      300,
      measure,
    );
    const band = l.band.size;
    expect(l.bars).toHaveLength(4);
    const [a0, b0, a1] = [
      l.bars.find((b) => b.dataset === 0 && b.index === 0),
      l.bars.find((b) => b.dataset === 0 && b.index === 1),
      l.bars.find((b) => b.dataset === 1 && b.index === 0),
    ];
    expect(a0 && a1 && b0).toBeTruthy();
    if (!a0 || !a1 || !b0) return;
    // Side by side, not overlapping, inside band 0.
    expect(a0.x + a0.w).toBeLessThanOrEqual(a1.x);
    expect(a0.x).toBeGreaterThanOrEqual(l.band.start);
    expect(a1.x + a1.w).toBeLessThanOrEqual(l.band.start + band);
    // Twice the value, twice the height, both from the same baseline.
    expect(b0.h).toBeCloseTo(2 * a0.h, 5);
    expect(a0.y + a0.h).toBeCloseTo(b0.y + b0.h, 5);
    expect(a0.y + a0.h).toBeCloseTo(l.plot.y + l.plot.h, 5);
  });

  test("stacked datasets of one stack share a column, each starting where the one below ends", () => {
    const l = chartLayout(
      spec({
        stacked: true,
        labels: ["S1", "S2"],
        datasets: [dataset("p", [3, 4], { stack: "s" }), dataset("u", [2, 1], { stack: "s" })],
      }),
      300,
      200,
      measure,
    );
    const p = l.bars.find((b) => b.dataset === 0 && b.index === 0);
    const u = l.bars.find((b) => b.dataset === 1 && b.index === 0);
    expect(p && u).toBeTruthy();
    if (!p || !u) return;
    expect(u.x).toBe(p.x);
    expect(u.w).toBe(p.w);
    expect(u.y + u.h).toBeCloseTo(p.y, 5);
    expect(u.h / p.h).toBeCloseTo(2 / 3, 5);
    expect(valueExtent(spec({ stacked: true, datasets: [dataset("p", [3, 4]), dataset("u", [2, 1])] }))).toEqual({
      low: 0,
      high: 5,
    });
  });

  test("horizontal bars grow rightwards from the plot's left edge, one row per category", () => {
    const l = chartLayout(
      spec({ horizontal: true, labels: ["Done", "To do"], datasets: [dataset("n", [4, 8])] }),
      300,
      200,
      measure,
    );
    const [done, todo] = l.bars;
    expect(done && todo).toBeTruthy();
    if (!done || !todo) return;
    expect(done.x).toBeCloseTo(l.plot.x, 5);
    expect(todo.w).toBeCloseTo(2 * done.w, 5);
    expect(todo.y).toBeGreaterThan(done.y);
    expect(l.categories.map((c) => c.text)).toEqual(["Done", "To do"]);
    expect(l.categories.every((c) => c.x <= l.plot.x)).toBe(true);
  });

  test("a per-category colour wins over the dataset's", () => {
    const l = chartLayout(
      spec({ labels: ["A", "B"], datasets: [dataset("n", [1, 2], { colors: ["#a00", "#0a0"] })] }),
      300,
      200,
      measure,
    );
    expect(l.bars.map((b) => b.color)).toEqual(["#a00", "#0a0"]);
  });
});

describe("lines", () => {
  test("a null breaks the line into runs; points sit at the band centres", () => {
    const l = chartLayout(
      spec({ kind: "line", labels: ["a", "b", "c", "d", "e"], datasets: [dataset("r", [1, 2, null, 4, 5])] }),
      500,
      200,
      measure,
    );
    expect(l.bars).toHaveLength(0);
    const runs = l.lines[0]?.runs ?? [];
    expect(runs.map((r) => r.map((p) => p.index))).toEqual([
      [0, 1],
      [3, 4],
    ]);
    const first = runs[0]?.[0];
    expect(first?.x).toBeCloseTo(l.band.start + l.band.size / 2, 5);
  });

  test("in a mixed chart the line dataset is a line over the bars, not a bar", () => {
    const l = chartLayout(
      spec({
        legend: true,
        labels: ["S1", "S2", "S3"],
        datasets: [
          dataset("Committed", [5, 6, 7]),
          dataset("Completed", [4, 6, 5]),
          dataset("Average", [5, 5, 5], { type: "line", dashed: true }),
        ],
      }),
      400,
      250,
      measure,
    );
    expect(new Set(l.bars.map((b) => b.dataset))).toEqual(new Set([0, 1]));
    expect(l.lines.map((x) => x.dataset)).toEqual([2]);
    expect(l.lines[0]?.dashed).toBe(true);
    expect(l.legend.map((e) => [e.text, e.line])).toEqual([
      ["Committed", false],
      ["Completed", false],
      ["Average", true],
    ]);
    // Near the line's point the line answers; lower inside the bar, the bar does.
    const p = l.lines[0]?.runs[0]?.[1];
    if (!p) throw new Error("no point");
    expect(hitTest(l, p.x, p.y + 1)).toMatchObject({ dataset: 2, index: 1 });
    const bar = l.bars.find((b) => b.dataset === 0 && b.index === 1);
    if (!bar) throw new Error("no bar");
    expect(hitTest(l, bar.x + bar.w / 2, bar.y + bar.h - 2)).toMatchObject({ dataset: 0, index: 1 });
  });
});

describe("pie and doughnut", () => {
  test("slices are proportional, skip zeros and nulls, and go all the way round", () => {
    const l = chartLayout(
      spec({
        kind: "doughnut",
        legend: true,
        labels: ["a", "b", "c", "d"],
        datasets: [dataset("n", [1, 0, 3, null], { colors: ["#1", "#2", "#3", "#4"] })],
      }),
      400,
      200,
      measure,
    );
    const round = l.round;
    expect(round).not.toBeNull();
    if (!round) return;
    expect(round.arcs.map((a) => a.index)).toEqual([0, 2]);
    expect(round.arcs.map((a) => a.color)).toEqual(["#1", "#3"]);
    const sweep = round.arcs.map((a) => a.end - a.start);
    expect(sweep[1]! / sweep[0]!).toBeCloseTo(3, 5);
    expect(sweep.reduce((s, v) => s + v, 0)).toBeCloseTo(Math.PI * 2, 9);
    expect(round.inner).toBeCloseTo(round.outer / 2, 9);
    // The legend is on the right of a wide canvas, and names every category.
    expect(l.legend.map((e) => e.text)).toEqual(["a", "b", "c", "d"]);
    expect(l.legend.every((e) => e.x > round.cx + round.outer)).toBe(true);
  });

  test("small totals still make a full circle; an all-zero pie has no slice", () => {
    const tiny = chartLayout(
      spec({ kind: "pie", labels: ["a", "b"], datasets: [dataset("n", [0.001, 0.002])] }),
      200,
      200,
      measure,
    );
    expect(tiny.round?.arcs.reduce((s, a) => s + a.end - a.start, 0)).toBeCloseTo(Math.PI * 2, 9);
    const none = chartLayout(spec({ kind: "pie", labels: ["a"], datasets: [dataset("n", [0])] }), 200, 200, measure);
    expect(none.round?.arcs).toEqual([]);
    expect(hitTest(none, 100, 100)).toBeNull();
  });

  test("the pointer resolves to the slice under it; the doughnut's hole and the outside to nothing", () => {
    const l = chartLayout(
      spec({ kind: "doughnut", labels: ["a", "b"], datasets: [dataset("n", [1, 1])] }),
      200,
      200,
      measure,
    );
    const r = l.round;
    if (!r) throw new Error("not round");
    const at = (r.inner + r.outer) / 2;
    // Slices start at 12 o'clock and run clockwise: "a" is on the right, "b" on the left.
    expect(hitTest(l, r.cx + at, r.cy)).toMatchObject({ index: 0 });
    expect(hitTest(l, r.cx - at, r.cy)).toMatchObject({ index: 1 });
    expect(hitTest(l, r.cx, r.cy)).toBeNull();
    expect(hitTest(l, r.cx + r.outer + 3, r.cy)).toBeNull();
    expect(
      tooltipText(spec({ kind: "doughnut", labels: ["a", "b"], datasets: [dataset("n", [1, 1])] }), {
        dataset: 0,
        index: 1,
      }),
    ).toBe("b: 1 pts");
  });
});

describe("category labels", () => {
  test("truncate with an ellipsis to fit, and give up when nothing fits", () => {
    expect(truncate("Working on it", 100, measure)).toBe("Working on it");
    expect(truncate("Working on it", 48, measure)).toBe("Working…");
    expect(measure(truncate("Working on it", 48, measure))).toBeLessThanOrEqual(48);
    expect(truncate("Working", 3, measure)).toBe("");
  });

  test("the stride keeps labels apart", () => {
    expect(labelStride(10, 50, 40)).toBe(1);
    expect(labelStride(100, 5, 40)).toBe(8);
  });

  test("for any labels and width, x-axis labels never overlap and stay on the canvas, flat or slanted", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 0, maxLength: 30 }), { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 80, max: 1400 }),
        fc.integer({ min: 120, max: 600 }),
        (labels, width, height) => {
          const l = chartLayout(
            spec({
              labels,
              datasets: [
                dataset(
                  "n",
                  labels.map((_, i) => i),
                ),
              ],
            }),
            width,
            height,
            measure,
          );
          const cats = l.categories;
          if (cats.some((c) => c.slanted)) {
            expect(cats.every((c) => c.slanted)).toBe(true);
            // Parallel 45° labels are a line height apart when their anchors are 14/sin 45° apart.
            for (let i = 1; i < cats.length; i++)
              expect(cats[i]!.x - cats[i - 1]!.x).toBeGreaterThanOrEqual(14 / Math.SQRT1_2 - 1e-9);
            for (const c of cats) {
              const run = measure(c.text) * Math.SQRT1_2;
              expect(c.x - run).toBeGreaterThanOrEqual(0);
              expect(c.y + run).toBeLessThanOrEqual(height);
              expect(c.y).toBeGreaterThanOrEqual(l.plot.y + l.plot.h);
            }
          } else {
            const boxes = cats.map((c) => ({ from: c.x - measure(c.text) / 2, to: c.x + measure(c.text) / 2 }));
            for (let i = 1; i < boxes.length; i++) expect(boxes[i]!.from).toBeGreaterThanOrEqual(boxes[i - 1]!.to + 6);
            for (const b of boxes) {
              expect(b.from).toBeGreaterThanOrEqual(0);
              expect(b.to).toBeLessThanOrEqual(width);
            }
            // Flat labels are whole unless wider than the plot, every k-th one from the first.
            const stride = cats.length > 1 ? labels.indexOf(cats[1]!.text, 1) : 1;
            cats.forEach((c, i) => {
              const label = labels[i * stride] ?? "";
              if (measure(label) + 8 <= l.plot.w) expect(c.text).toBe(label);
            });
          }
        },
      ),
    );
  });

  test("labels that fit lie flat and whole; long ones slant while the height allows, else every k-th lies flat", () => {
    const flat = chartLayout(spec({ labels: ["To do", "Done"], datasets: [dataset("n", [1, 2])] }), 400, 240, measure);
    expect(flat.categories.map((c) => [c.text, c.slanted])).toEqual([
      ["To do", false],
      ["Done", false],
    ]);
    const weeks = [
      "Week of 2026-11-02",
      "Week of 2026-11-09",
      "Week of 2026-11-16",
      "Week of 2026-11-23",
      "Week of 2026-11-30",
    ];
    const slanted = chartLayout(spec({ labels: weeks, datasets: [dataset("n", [1, 2, 3, 4, 5])] }), 360, 240, measure);
    expect(slanted.categories.every((c) => c.slanted)).toBe(true);
    expect(slanted.categories.map((c) => c.text)).toEqual(weeks);
    const short = chartLayout(spec({ labels: weeks, datasets: [dataset("n", [1, 2, 3, 4, 5])] }), 360, 120, measure);
    expect(short.categories.map((c) => [c.text, c.slanted])).toEqual([
      [weeks[0], false],
      [weeks[2], false],
      [weeks[4], false],
    ]);
  });

  test("a first or last label pushed inside the canvas onto its neighbour is left out", () => {
    const weeks = Array.from({ length: 7 }, (_, i) => `Week of 2026-11-${String(i + 10)}`);
    for (let width = 200; width <= 600; width += 5) {
      const l = chartLayout(
        spec({
          labels: weeks,
          datasets: [
            dataset(
              "n",
              weeks.map(() => 1),
            ),
          ],
        }),
        width,
        110,
        measure,
      );
      expect(l.categories.every((c) => !c.slanted)).toBe(true);
      for (let i = 1; i < l.categories.length; i++) {
        const [a, b] = [l.categories[i - 1]!, l.categories[i]!];
        expect(b.x - measure(b.text) / 2 - (a.x + measure(a.text) / 2)).toBeGreaterThanOrEqual(6);
      }
    }
  });

  test("many dates thin out to every k-th label, first one kept", () => {
    const labels = Array.from({ length: 60 }, (_, i) => `2024-01-${String(i + 1).padStart(2, "0")}`);
    const l = chartLayout(
      spec({
        kind: "line",
        labels,
        datasets: [
          dataset(
            "r",
            labels.map(() => 1),
          ),
        ],
      }),
      390,
      200,
      measure,
    );
    expect(l.categories.length).toBeLessThan(20);
    expect(l.categories.length).toBeGreaterThan(5);
    expect(l.categories[0]?.text).toBe("2024-01-01");
  });
});

describe("legend", () => {
  test("wraps to a new row when the next entry would pass the width", () => {
    const entries = ["Committed", "Completed", "Average of last 3"].map((text) => ({
      text,
      color: "#000",
      dashed: false,
      line: false,
    }));
    const wide = legendRows(entries, 0, 0, 1000, measure);
    expect(new Set(wide.entries.map((e) => e.y)).size).toBe(1);
    const narrow = legendRows(entries, 0, 0, 150, measure);
    expect(new Set(narrow.entries.map((e) => e.y)).size).toBe(3);
    expect(narrow.height).toBeGreaterThan(wide.height);
    for (const e of narrow.entries) expect(e.x + 18 + measure(e.text)).toBeLessThanOrEqual(150);
  });

  test("cartesian charts keep the legend below the plot", () => {
    const l = chartLayout(
      spec({ legend: true, labels: ["A"], datasets: [dataset("x", [1]), dataset("y", [2])] }),
      300,
      200,
      measure,
    );
    expect(l.legend.every((e) => e.y > l.plot.y + l.plot.h)).toBe(true);
    expect(l.legend.every((e) => e.y + 14 <= 200)).toBe(true);
  });
});

describe("hit-testing and keyboard order", () => {
  const s = spec({ labels: ["A", "B", "C"], datasets: [dataset("Items", [3, 1, 2])] });
  const l = chartLayout(s, 300, 200, measure);

  test("a bar answers with its dataset and index; the tooltip reads `label: value`", () => {
    const b = l.bars[2];
    if (!b) throw new Error("no bar");
    const hit = hitTest(l, b.x + b.w / 2, b.y + b.h / 2);
    expect(hit).toMatchObject({ dataset: 0, index: 2 });
    expect(tooltipText(s, hit as { dataset: number; index: number })).toBe("Items: 2 pts");
    expect(tooltipTitle(s, { index: 2 })).toBe("C");
    expect(tooltipTitle({ ...s, kind: "pie" }, { index: 2 })).toBe("");
    expect(hitTest(l, 1, 1)).toBeNull();
  });

  test("the keyboard steps through every figure in category order", () => {
    expect(figureOrder(l).map((h) => h.index)).toEqual([0, 1, 2]);
  });

  test("on a line chart anywhere in a band picks that band's nearest point", () => {
    const line = chartLayout(
      spec({ kind: "line", labels: ["a", "b"], datasets: [dataset("lo", [1, 1]), dataset("hi", [9, 9])] }),
      300,
      200,
      measure,
    );
    const x = line.band.start + line.band.size * 1.5;
    expect(hitTest(line, x, line.plot.y + 2)).toMatchObject({ dataset: 1, index: 1 });
    expect(hitTest(line, x, line.plot.y + line.plot.h - 2)).toMatchObject({ dataset: 0, index: 1 });
  });
});
