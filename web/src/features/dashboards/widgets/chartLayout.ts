/**
 * Where everything of a chart goes, in CSS pixels, computed from a `ChartSpec` and the canvas
 * size without a canvas: axis ticks, bars, line points, pie arcs, category labels that fit,
 * the legend, and which figure a pointer is over. Pure, so each rule is unit-tested; the
 * drawing (chartDraw.ts) only paints what this returns.
 */
import type { ChartSpec } from "./chartSpec";

/** Measures text in CSS pixels; the drawing passes the canvas's, tests a fixed-width stand-in. */
export type MeasureText = (text: string) => number;

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Ticks {
  min: number;
  max: number;
  step: number;
  values: number[];
}

export interface Bar extends Rect {
  dataset: number;
  index: number;
  color: string;
}

export interface LinePoint {
  x: number;
  y: number;
  index: number;
}

export interface LineSeries {
  dataset: number;
  color: string;
  dashed: boolean;
  /** Runs of consecutive non-null values: a null breaks the line. */
  runs: LinePoint[][];
}

export interface Arc {
  dataset: number;
  index: number;
  start: number;
  end: number;
  color: string;
}

export interface Round {
  cx: number;
  cy: number;
  outer: number;
  inner: number;
  arcs: Arc[];
}

export interface AxisLabel {
  text: string;
  x: number;
  y: number;
  align: "left" | "center" | "right";
  /** Slanted labels end at (x, y) and run down-left at 45°. */
  slanted: boolean;
}

export interface GridLine {
  /** The value's pixel position along the value axis. */
  at: number;
  label: string;
}

export interface LegendEntry {
  text: string;
  color: string;
  dashed: boolean;
  line: boolean;
  x: number;
  y: number;
}

export interface ChartLayout {
  width: number;
  height: number;
  plot: Rect;
  horizontal: boolean;
  /** Value-axis gridlines with their labels; empty for round charts. */
  grid: GridLine[];
  /** The category labels that fit, already truncated. */
  categories: AxisLabel[];
  bars: Bar[];
  lines: LineSeries[];
  round: Round | null;
  legend: LegendEntry[];
  /** Pixel band of each category along the category axis (start, size), for hit-testing. */
  band: { start: number; size: number; count: number };
}

export const FONT_PX = 11;
export const LINE_HEIGHT = 14;
export const LEGEND_BOX = 12;
const LEGEND_GAP = 6;
const LEGEND_ITEM_GAP = 12;
const PAD = 6;
const LABEL_GAP = 4;
/** The widest a category label may be on the y axis of a horizontal bar chart. */
const MAX_Y_LABEL_SHARE = 0.35;
const POINT_HIT = 8;
/** The least space between two flat category labels. */
const MIN_LABEL_GAP = 6;
const SIN45 = Math.SQRT1_2;
/** Slanted category labels take at most this share of the canvas's height. */
const MAX_SLANT_SHARE = 0.4;

/** Nice steps: 1, 2 or 5 × 10^n, so the gridlines read as round numbers. */
export function niceStep(range: number, maxTicks: number): number {
  if (!(range > 0) || !Number.isFinite(range)) return 1;
  const raw = range / Math.max(1, maxTicks);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/**
 * Ticks of a value axis that always includes 0 (bars grow from it), with at most about
 * `maxTicks` steps. An axis of nothing but zeros (or next to nothing) still gets a 0–1 range.
 */
export function niceTicks(low: number, high: number, maxTicks: number): Ticks {
  let lo = Math.min(0, low);
  let hi = Math.max(0, high);
  // Below a millionth the figures are rounding noise (the engine formats to fewer places).
  if (hi - lo < 1e-6) hi = lo + 1;
  const step = niceStep(hi - lo, maxTicks);
  lo = Math.floor(lo / step + 1e-9) * step;
  hi = Math.ceil(hi / step - 1e-9) * step;
  const values: number[] = [];
  const count = Math.round((hi - lo) / step);
  // Rounding to the step's decimals avoids 0.30000000000000004 in labels.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  for (let i = 0; i <= count; i++) values.push(Number((lo + i * step).toFixed(Math.min(decimals, 20))));
  return { min: lo, max: hi, step, values };
}

/** Compact tick labels: 1.5k, 2M, 0.25. */
export function tickLabel(value: number): string {
  const abs = Math.abs(value);
  const trim = (n: number) => String(Number(n.toFixed(2)));
  if (abs >= 1e9) return `${trim(value / 1e9)}G`;
  if (abs >= 1e6) return `${trim(value / 1e6)}M`;
  if (abs >= 1e4) return `${trim(value / 1e3)}k`;
  return trim(value);
}

/** A linear map from values to pixels; `from`/`to` may run backwards (the y axis grows upward). */
export function linearScale(min: number, max: number, from: number, to: number): (v: number) => number {
  const span = max - min || 1;
  return (v) => from + ((v - min) / span) * (to - from);
}

/** `text` cut to `width` with an ellipsis; empty when not even the ellipsis fits. */
export function truncate(text: string, width: number, measure: MeasureText): string {
  if (measure(text) <= width) return text;
  if (measure("…") > width) return "";
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measure(`${text.slice(0, mid)}…`) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${text.slice(0, lo).trimEnd()}…`;
}

/**
 * Which category labels to show along an axis with `count` bands of `band` pixels, each label
 * needing `need` pixels: every k-th one, k the smallest step that keeps them apart.
 */
export function labelStride(count: number, band: number, need: number): number {
  if (count <= 0) return 1;
  if (!(band > 0)) return count;
  return Math.max(1, Math.ceil(need / band));
}

function isRound(spec: ChartSpec): boolean {
  return spec.kind === "pie" || spec.kind === "doughnut";
}

function isLine(spec: ChartSpec, dataset: number): boolean {
  const d = spec.datasets[dataset];
  return spec.kind === "line" || d?.type === "line";
}

/** The value range the value axis must cover: stacked bars add up per stack and sign. */
export function valueExtent(spec: ChartSpec): { low: number; high: number } {
  let low = 0;
  let high = 0;
  const stacks = new Map<string, { pos: number[]; neg: number[] }>();
  spec.datasets.forEach((d, j) => {
    const stacked = spec.stacked && !isLine(spec, j);
    const key = d.stack ?? "";
    let sums = stacks.get(key);
    if (stacked && !sums) {
      sums = { pos: [], neg: [] };
      stacks.set(key, sums);
    }
    d.data.forEach((v, i) => {
      if (v === null || !Number.isFinite(v)) return;
      if (stacked && sums) {
        const side = v >= 0 ? sums.pos : sums.neg;
        side[i] = (side[i] ?? 0) + v;
        low = Math.min(low, side[i]);
        high = Math.max(high, side[i]);
      } else {
        low = Math.min(low, v);
        high = Math.max(high, v);
      }
    });
  });
  return { low, high };
}

/** Legend entries laid out in rows that wrap at `width`, starting at (x, y). */
export function legendRows(
  entries: { text: string; color: string; dashed: boolean; line: boolean }[],
  x: number,
  y: number,
  width: number,
  measure: MeasureText,
): { entries: LegendEntry[]; height: number } {
  const out: LegendEntry[] = [];
  const maxText = Math.max(0, width - LEGEND_BOX - LEGEND_GAP);
  let cx = x;
  let cy = y;
  let rows = entries.length > 0 ? 1 : 0;
  for (const e of entries) {
    const text = truncate(e.text, maxText, measure);
    const w = LEGEND_BOX + LEGEND_GAP + measure(text);
    if (cx > x && cx + w > x + width) {
      cx = x;
      cy += LINE_HEIGHT + 4;
      rows++;
    }
    out.push({ ...e, text, x: cx, y: cy });
    cx += w + LEGEND_ITEM_GAP;
  }
  return { entries: out, height: rows === 0 ? 0 : rows * (LINE_HEIGHT + 4) - 4 };
}

function legendSource(spec: ChartSpec): { text: string; color: string; dashed: boolean; line: boolean }[] {
  if (isRound(spec)) {
    const d = spec.datasets[0];
    return spec.labels.map((label, i) => ({
      text: label,
      color: d?.colors?.[i] ?? d?.color ?? "#888",
      dashed: false,
      line: false,
    }));
  }
  return spec.datasets.map((d, j) => ({ text: d.label, color: d.color, dashed: !!d.dashed, line: isLine(spec, j) }));
}

function roundLayout(spec: ChartSpec, width: number, height: number, measure: MeasureText): ChartLayout {
  let plot: Rect = { x: PAD, y: PAD, w: Math.max(0, width - 2 * PAD), h: Math.max(0, height - 2 * PAD) };
  let legend: LegendEntry[] = [];
  if (spec.legend && spec.labels.length > 0) {
    // The legend goes right while the chart keeps most of the width; on a narrow canvas, below.
    const widest = Math.max(...spec.labels.map((l) => measure(l))) + LEGEND_BOX + LEGEND_GAP;
    const side = Math.min(widest, width * 0.45);
    if (width - side - 3 * PAD >= Math.min(height, 120) * 0.8) {
      const lx = width - PAD - side;
      const rows = legendRows(legendSource(spec), lx, PAD, side, measure);
      const top = Math.max(PAD, (height - rows.height) / 2);
      legend = rows.entries.map((e) => ({ ...e, y: e.y + top - PAD }));
      plot = { x: PAD, y: PAD, w: Math.max(0, lx - 2 * PAD), h: plot.h };
    } else {
      const rows = legendRows(legendSource(spec), PAD, 0, width - 2 * PAD, measure);
      const top = height - PAD - rows.height;
      legend = rows.entries.map((e) => ({ ...e, y: e.y + top }));
      plot = { x: PAD, y: PAD, w: plot.w, h: Math.max(0, top - 2 * PAD) };
    }
  }
  const outer = Math.max(0, Math.min(plot.w, plot.h) / 2);
  const inner = spec.kind === "doughnut" ? outer * 0.5 : 0;
  const arcs: Arc[] = [];
  const d = spec.datasets[0];
  if (d) {
    const total = d.data.reduce<number>((s, v) => s + (v !== null && v > 0 ? v : 0), 0);
    let angle = -Math.PI / 2;
    if (total > 0) {
      d.data.forEach((v, i) => {
        // Zero, negative and missing values have no slice.
        if (v === null || !(v > 0)) return;
        const sweep = (v / total) * Math.PI * 2;
        arcs.push({ dataset: 0, index: i, start: angle, end: angle + sweep, color: d.colors?.[i] ?? d.color });
        angle += sweep;
      });
    }
  }
  return {
    width,
    height,
    plot,
    horizontal: false,
    grid: [],
    categories: [],
    bars: [],
    lines: [],
    round: { cx: plot.x + plot.w / 2, cy: plot.y + plot.h / 2, outer, inner, arcs },
    legend,
    band: { start: 0, size: 0, count: 0 },
  };
}

/** Lays out a chart on a `width` × `height` CSS-pixel canvas. */
export function chartLayout(spec: ChartSpec, width: number, height: number, measure: MeasureText): ChartLayout {
  if (isRound(spec)) return roundLayout(spec, width, height, measure);
  const horizontal = spec.horizontal;
  const count = spec.labels.length;

  // Legend at the bottom, wrapping.
  let bottom = height - PAD;
  let legend: LegendEntry[] = [];
  if (spec.legend && spec.datasets.length > 0) {
    const rows = legendRows(legendSource(spec), PAD, 0, width - 2 * PAD, measure);
    bottom -= rows.height;
    legend = rows.entries.map((e) => ({ ...e, y: e.y + bottom }));
    bottom -= LABEL_GAP * 2;
  }

  const extent = valueExtent(spec);
  // A first guess of the plot's value-axis length picks how many ticks fit.
  const valueLength = horizontal ? width - 2 * PAD : bottom - PAD;
  const maxTicks = Math.max(2, Math.floor(valueLength / (horizontal ? 60 : 32)));
  const ticks = niceTicks(extent.low, extent.high, maxTicks);
  const labels = ticks.values.map(tickLabel);
  const tickWidth = Math.max(0, ...labels.map((l) => measure(l)));

  let plot: Rect;
  let slant = false;
  let slantWidth = 0;
  if (horizontal) {
    const catWidth = Math.min(Math.max(0, ...spec.labels.map((l) => measure(l))), width * MAX_Y_LABEL_SHARE);
    const left = PAD + catWidth + LABEL_GAP;
    const plotBottom = bottom - LINE_HEIGHT - LABEL_GAP;
    // Half the last tick label may overhang the plot's right edge.
    const right = width - PAD - Math.ceil(measure(labels[labels.length - 1] ?? "") / 2);
    plot = { x: left, y: PAD, w: Math.max(0, right - left), h: Math.max(0, plotBottom - PAD) };
  } else {
    let left = PAD + tickWidth + LABEL_GAP;
    const widest = Math.max(0, ...spec.labels.map((l) => measure(l)));
    // Labels lie flat when each fits its band; otherwise they slant at 45° as Chart.js's did,
    // which needs less room along the axis, if the height allows them whole. A date cut short
    // says nothing, so past that they lie flat again, every k-th one.
    slantWidth = ((bottom - PAD) * MAX_SLANT_SHARE) / SIN45;
    slant = count > 0 && widest + 8 > (width - PAD - left) / count && widest <= slantWidth;
    slantWidth = Math.min(widest, slantWidth);
    if (slant) {
      // The first slanted label runs left of its band's centre: move the plot right until it
      // fits, solving left + (width - PAD - left) / 2count >= PAD + its run, within 40 % of the width.
      const run = Math.min(measure(spec.labels[0] ?? ""), slantWidth) * SIN45 + LINE_HEIGHT / 2;
      const half = 1 / (2 * count);
      const needed = (PAD + run - (width - PAD) * half) / (1 - half);
      left = Math.min(Math.max(left, needed), width * 0.4);
    }
    const plotW = Math.max(0, width - PAD - left);
    const labelHeight = slant ? (slantWidth + LINE_HEIGHT) * SIN45 : LINE_HEIGHT;
    const plotBottom = bottom - labelHeight - LABEL_GAP;
    plot = {
      x: left,
      y: PAD + FONT_PX / 2,
      w: plotW,
      h: Math.max(0, plotBottom - PAD - FONT_PX / 2),
    };
  }

  const value = horizontal
    ? linearScale(ticks.min, ticks.max, plot.x, plot.x + plot.w)
    : linearScale(ticks.min, ticks.max, plot.y + plot.h, plot.y);
  const bandStart = horizontal ? plot.y : plot.x;
  const bandSize = count > 0 ? (horizontal ? plot.h : plot.w) / count : 0;

  const grid: GridLine[] = ticks.values.map((v, i) => ({ at: value(v), label: labels[i] ?? "" }));

  // Category labels: along x flat when they fit their bands, else slanted or thinned (see
  // above); along y (horizontal bars) one per band when the row height allows.
  const categories: AxisLabel[] = [];
  if (count > 0) {
    if (horizontal) {
      const stride = labelStride(count, bandSize, LINE_HEIGHT);
      const maxW = plot.x - PAD - LABEL_GAP;
      for (let i = 0; i < count; i += stride) {
        const text = truncate(spec.labels[i] ?? "", maxW, measure);
        categories.push({
          text,
          x: plot.x - LABEL_GAP,
          y: bandStart + bandSize * (i + 0.5),
          align: "right",
          slanted: false,
        });
      }
    } else if (slant) {
      // Parallel slanted labels a line height apart need their anchors 1/sin 45° line heights apart.
      const stride = labelStride(count, bandSize, (LINE_HEIGHT + 2) / SIN45);
      const y = plot.y + plot.h + LABEL_GAP + 2;
      for (let i = 0; i < count; i += stride) {
        const x = bandStart + bandSize * (i + 0.5);
        // A label near the left edge is cut so it does not run off the canvas.
        const room = Math.min(slantWidth, (x - LINE_HEIGHT / 2) / SIN45);
        categories.push({ text: truncate(spec.labels[i] ?? "", room, measure), x, y, align: "right", slanted: true });
      }
    } else {
      const widest = Math.max(...spec.labels.map((l) => measure(l)));
      const stride = labelStride(count, bandSize, widest + 8);
      // Only a label wider than the whole plot is cut.
      const maxW = Math.max(0, Math.min(bandSize * stride - 8, width - 2));
      const y = plot.y + plot.h + LABEL_GAP + FONT_PX / 2 + 1;
      let previousEnd = -Infinity;
      for (let i = 0; i < count; i += stride) {
        const text = truncate(spec.labels[i] ?? "", maxW, measure);
        // Keep the first and last labels inside the canvas; one pushed inwards onto its
        // neighbour is left out.
        const half = measure(text) / 2;
        const x = Math.min(Math.max(bandStart + bandSize * (i + 0.5), half + 1), width - half - 1);
        if (x - half < previousEnd + MIN_LABEL_GAP) continue;
        previousEnd = x + half;
        categories.push({ text, x, y, align: "center", slanted: false });
      }
    }
  }

  // Bars: datasets drawn as bars share each band; stacked ones by stack group.
  const barSets = spec.datasets.map((_, j) => j).filter((j) => !isLine(spec, j));
  const groups: string[] = [];
  const groupOf = new Map<number, number>();
  for (const j of barSets) {
    const key = spec.stacked ? (spec.datasets[j]?.stack ?? "") : String(j);
    let g = groups.indexOf(key);
    if (g < 0) {
      groups.push(key);
      g = groups.length - 1;
    }
    groupOf.set(j, g);
  }
  const inner = bandSize * 0.8;
  const barSize = groups.length > 0 ? (inner / groups.length) * 0.9 : 0;
  const bars: Bar[] = [];
  const posSums: number[][] = groups.map(() => []);
  const negSums: number[][] = groups.map(() => []);
  for (const j of barSets) {
    const d = spec.datasets[j];
    const g = groupOf.get(j) ?? 0;
    if (!d) continue;
    for (let i = 0; i < count; i++) {
      const v = d.data[i];
      if (v === null || v === undefined || !Number.isFinite(v)) continue;
      let base = 0;
      if (spec.stacked) {
        const side = v >= 0 ? (posSums[g] as number[]) : (negSums[g] as number[]);
        base = side[i] ?? 0;
        side[i] = base + v;
      }
      const a = value(base);
      const b = value(base + v);
      const across =
        bandStart +
        bandSize * i +
        (bandSize - inner) / 2 +
        (inner / groups.length) * g +
        (inner / groups.length - barSize) / 2;
      const color = d.colors?.[i] ?? d.color;
      if (horizontal)
        bars.push({ dataset: j, index: i, color, x: Math.min(a, b), y: across, w: Math.abs(b - a), h: barSize });
      else bars.push({ dataset: j, index: i, color, x: across, y: Math.min(a, b), w: barSize, h: Math.abs(b - a) });
    }
  }

  // Lines: a point per non-null value at its band's centre; nulls break the line.
  const lines: LineSeries[] = [];
  spec.datasets.forEach((d, j) => {
    if (!isLine(spec, j)) return;
    const runs: LinePoint[][] = [];
    let run: LinePoint[] = [];
    for (let i = 0; i < count; i++) {
      const v = d.data[i];
      if (v === null || v === undefined || !Number.isFinite(v)) {
        if (run.length) runs.push(run);
        run = [];
        continue;
      }
      const along = bandStart + bandSize * (i + 0.5);
      run.push(horizontal ? { x: value(v), y: along, index: i } : { x: along, y: value(v), index: i });
    }
    if (run.length) runs.push(run);
    lines.push({ dataset: j, color: d.color, dashed: !!d.dashed, runs });
  });

  return {
    width,
    height,
    plot,
    horizontal,
    grid,
    categories,
    bars,
    lines,
    round: null,
    legend,
    band: { start: bandStart, size: bandSize, count },
  };
}

export interface Hit {
  dataset: number;
  index: number;
  /** Where the tooltip points, in CSS pixels of the canvas. */
  x: number;
  y: number;
}

/**
 * The figure under the pointer at (x, y): a slice of a round chart, a line point near it (lines
 * are drawn over bars, so they win), else the bar under it; on a line chart, the nearest point
 * of the band under the pointer. `null` when nothing is there.
 */
export function hitTest(layout: ChartLayout, x: number, y: number): Hit | null {
  const round = layout.round;
  if (round) {
    const dx = x - round.cx;
    const dy = y - round.cy;
    const r = Math.hypot(dx, dy);
    if (r > round.outer || r < round.inner) return null;
    let angle = Math.atan2(dy, dx);
    if (angle < -Math.PI / 2) angle += Math.PI * 2;
    const arc = round.arcs.find((a) => angle >= a.start && angle < a.end);
    if (!arc) return null;
    const mid = (arc.start + arc.end) / 2;
    const at = (round.inner + round.outer) / 2;
    return {
      dataset: arc.dataset,
      index: arc.index,
      x: round.cx + Math.cos(mid) * at,
      y: round.cy + Math.sin(mid) * at,
    };
  }
  const { plot, band } = layout;
  if (
    x < plot.x - POINT_HIT ||
    x > plot.x + plot.w + POINT_HIT ||
    y < plot.y - POINT_HIT ||
    y > plot.y + plot.h + POINT_HIT
  ) {
    return null;
  }
  let best: Hit | null = null;
  let bestDistance = Infinity;
  const onlyLines = layout.bars.length === 0;
  const index = band.size > 0 ? Math.floor(((layout.horizontal ? y : x) - band.start) / band.size) : -1;
  for (const line of layout.lines) {
    for (const run of line.runs) {
      for (const p of run) {
        // On a pure line chart anywhere in a point's band counts, the nearest value winning;
        // over bars only a pointer near the point does, so the bars stay reachable.
        const inBand = onlyLines && p.index === index;
        const distance = inBand ? Math.abs(layout.horizontal ? p.x - x : p.y - y) : Math.hypot(p.x - x, p.y - y);
        if ((inBand || distance <= POINT_HIT) && distance < bestDistance) {
          bestDistance = distance;
          best = { dataset: line.dataset, index: p.index, x: p.x, y: p.y };
        }
      }
    }
  }
  if (best) return best;
  for (const bar of layout.bars) {
    // A bar too short to aim at still answers anywhere in its column across the band.
    const inAcross = layout.horizontal ? y >= bar.y && y <= bar.y + bar.h : x >= bar.x && x <= bar.x + bar.w;
    const inAlong = layout.horizontal
      ? x >= bar.x - 2 && x <= bar.x + Math.max(bar.w, 4) + 2
      : y >= bar.y - 2 && y <= bar.y + Math.max(bar.h, 4) + 2;
    if (inAcross && inAlong) {
      return layout.horizontal
        ? { dataset: bar.dataset, index: bar.index, x: bar.x + bar.w, y: bar.y + bar.h / 2 }
        : { dataset: bar.dataset, index: bar.index, x: bar.x + bar.w / 2, y: bar.y };
    }
  }
  return null;
}

/** The tooltip's text, as Chart.js showed it: `name: value`, the name a slice's label on round charts. */
export function tooltipText(spec: ChartSpec, hit: { dataset: number; index: number }): string {
  const d = spec.datasets[hit.dataset];
  const text = d?.tooltips[hit.index] ?? "";
  const name = isRound(spec) ? (spec.labels[hit.index] ?? "") : (d?.label ?? "");
  return name ? `${name}: ${text}` : text;
}

/** The tooltip's title, as Chart.js's: the category on cartesian charts, none on round ones. */
export function tooltipTitle(spec: ChartSpec, hit: { index: number }): string {
  return isRound(spec) ? "" : (spec.labels[hit.index] ?? "");
}

/** Every figure in reading order, for stepping through them with the keyboard. */
export function figureOrder(layout: ChartLayout): Hit[] {
  if (layout.round) {
    return layout.round.arcs
      .map((a) => hitTest(layout, ...arcPoint(layout.round as Round, a)))
      .filter((h): h is Hit => h !== null);
  }
  const out: Hit[] = [];
  for (let i = 0; i < layout.band.count; i++) {
    for (const b of layout.bars) {
      if (b.index === i) {
        out.push(
          layout.horizontal
            ? { dataset: b.dataset, index: i, x: b.x + b.w, y: b.y + b.h / 2 }
            : { dataset: b.dataset, index: i, x: b.x + b.w / 2, y: b.y },
        );
      }
    }
    for (const l of layout.lines) {
      for (const run of l.runs)
        for (const p of run) if (p.index === i) out.push({ dataset: l.dataset, index: i, x: p.x, y: p.y });
    }
  }
  return out;
}

function arcPoint(round: Round, arc: Arc): [number, number] {
  const mid = (arc.start + arc.end) / 2;
  const at = (round.inner + round.outer) / 2;
  return [round.cx + Math.cos(mid) * at, round.cy + Math.sin(mid) * at];
}
