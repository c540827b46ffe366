/**
 * Paints a `ChartLayout` on a canvas: gridlines, bars, lines, slices, labels and the legend, in
 * one pass with no animation, at the device's pixel ratio so edges stay crisp. Colours of text
 * and gridlines come from the page's custom properties, so the chart follows light and dark mode.
 */
import { FONT_PX, LEGEND_BOX, LINE_HEIGHT, type ChartLayout } from "./chartLayout";

export interface ChartColors {
  text: string;
  muted: string;
  grid: string;
  /** The card behind the chart: slice borders and the gaps between them. */
  surface: string;
  font: string;
}

/** Reads the chart's colours from the custom properties around `element` (dashboard.css). */
export function readColors(element: Element): ChartColors {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  return {
    text: read("--dash-text", "#1f2430"),
    muted: read("--dash-muted", "#5c6477"),
    grid: read("--dash-line", "#d8dce6"),
    surface: read("--dash-card", "#ffffff"),
    font: `${FONT_PX}px ${style.fontFamily || "system-ui, sans-serif"}`,
  };
}

/**
 * Sizes the canvas's backing store to `width` × `height` CSS pixels at `ratio`, leaving the
 * context scaled so the drawing works in CSS pixels. Only touches the size when it changed,
 * since setting it clears and reallocates the backing store.
 */
export function prepareCanvas(
  canvas: HTMLCanvasElement,
  width: number,
  height: number,
  ratio: number,
): CanvasRenderingContext2D | null {
  const w = Math.max(1, Math.round(width * ratio));
  const h = Math.max(1, Math.round(height * ratio));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  const ctx = canvas.getContext("2d");
  if (!ctx) return null;
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);
  return ctx;
}

/** Snaps a 1-pixel line's coordinate to the middle of a device pixel. */
function crisp(v: number, ratio: number): number {
  return (Math.round(v * ratio - 0.5) + 0.5) / ratio;
}

export function drawChart(
  ctx: CanvasRenderingContext2D,
  layout: ChartLayout,
  colors: ChartColors,
  ratio: number,
): void {
  ctx.font = colors.font;
  ctx.textBaseline = "middle";
  ctx.lineJoin = "round";
  ctx.lineCap = "round";
  const { plot } = layout;

  if (!layout.round) {
    // Gridlines and value labels.
    ctx.lineWidth = 1 / ratio;
    ctx.strokeStyle = colors.grid;
    ctx.fillStyle = colors.muted;
    ctx.beginPath();
    for (const g of layout.grid) {
      if (layout.horizontal) {
        const x = crisp(g.at, ratio);
        ctx.moveTo(x, plot.y);
        ctx.lineTo(x, plot.y + plot.h);
      } else {
        const y = crisp(g.at, ratio);
        ctx.moveTo(plot.x, y);
        ctx.lineTo(plot.x + plot.w, y);
      }
    }
    ctx.stroke();
    for (const g of layout.grid) {
      if (layout.horizontal) {
        ctx.textAlign = "center";
        ctx.fillText(g.label, g.at, plot.y + plot.h + 4 + LINE_HEIGHT / 2);
      } else {
        ctx.textAlign = "right";
        ctx.fillText(g.label, plot.x - 4, g.at);
      }
    }

    // Bars, then lines over them.
    for (const b of layout.bars) {
      if (b.w <= 0 || b.h <= 0) continue;
      // Edges on whole device pixels, so neighbouring bars do not blur into each other.
      const x0 = Math.round(b.x * ratio) / ratio;
      const y0 = Math.round(b.y * ratio) / ratio;
      const x1 = Math.max(x0 + 1 / ratio, Math.round((b.x + b.w) * ratio) / ratio);
      const y1 = Math.max(y0 + 1 / ratio, Math.round((b.y + b.h) * ratio) / ratio);
      ctx.fillStyle = b.color;
      ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
    }
    ctx.lineWidth = 2;
    for (const line of layout.lines) {
      ctx.strokeStyle = line.color;
      ctx.fillStyle = line.color;
      ctx.setLineDash(line.dashed ? [6, 4] : []);
      ctx.beginPath();
      for (const run of line.runs) {
        run.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
      }
      ctx.stroke();
      ctx.setLineDash([]);
      // Points, so a lone value between gaps still shows.
      ctx.beginPath();
      for (const run of line.runs) {
        for (const p of run) {
          ctx.moveTo(p.x + 2.5, p.y);
          ctx.arc(p.x, p.y, 2.5, 0, Math.PI * 2);
        }
      }
      ctx.fill();
    }

    // Category labels.
    ctx.fillStyle = colors.text;
    for (const c of layout.categories) {
      ctx.textAlign = c.align;
      if (c.slanted) {
        ctx.save();
        ctx.translate(c.x, c.y);
        ctx.rotate(-Math.PI / 4);
        ctx.fillText(c.text, 0, 0);
        ctx.restore();
      } else {
        ctx.fillText(c.text, c.x, c.y);
      }
    }
  } else {
    const { cx, cy, outer, inner, arcs } = layout.round;
    ctx.lineWidth = arcs.length > 1 ? 1.5 : 0;
    ctx.strokeStyle = colors.surface;
    for (const a of arcs) {
      ctx.fillStyle = a.color;
      ctx.beginPath();
      ctx.arc(cx, cy, outer, a.start, a.end);
      if (inner > 0) ctx.arc(cx, cy, inner, a.end, a.start, true);
      else ctx.lineTo(cx, cy);
      ctx.closePath();
      ctx.fill();
      if (arcs.length > 1) ctx.stroke();
    }
  }

  // Legend.
  ctx.textAlign = "left";
  for (const e of layout.legend) {
    const mid = e.y + LINE_HEIGHT / 2;
    if (e.line) {
      ctx.strokeStyle = e.color;
      ctx.lineWidth = 2;
      ctx.setLineDash(e.dashed ? [4, 3] : []);
      ctx.beginPath();
      ctx.moveTo(e.x, mid);
      ctx.lineTo(e.x + LEGEND_BOX, mid);
      ctx.stroke();
      ctx.setLineDash([]);
    } else {
      ctx.fillStyle = e.color;
      ctx.fillRect(e.x, mid - LEGEND_BOX / 2 + 1, LEGEND_BOX, LEGEND_BOX - 2);
    }
    ctx.fillStyle = colors.text;
    ctx.fillText(e.text, e.x + LEGEND_BOX + 6, mid);
  }
}
