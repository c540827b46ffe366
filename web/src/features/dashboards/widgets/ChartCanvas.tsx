/**
 * A canvas that draws a `ChartSpec` with our own small renderer (chartLayout.ts places, chartDraw.ts
 * paints): one synchronous draw per spec, one per frame at most while the widget is resized, and a
 * redraw when the theme or the print stylesheet changes the colours. A tooltip follows the pointer
 * or, with the canvas focused, the arrow keys; the figures themselves are the table inside the
 * canvas, which screen readers and tests read. It is part of the dashboard's own code, not a
 * module loaded on demand: a chart module that came after the results (its import's task queued
 * behind the results' render) made the charts mount in a render and frame of their own.
 */
import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { drawChart, prepareCanvas, readColors, type ChartColors } from "./chartDraw";
import {
  chartLayout,
  figureOrder,
  hitTest,
  tooltipText,
  tooltipTitle,
  type ChartLayout,
  type Hit,
  type MeasureText,
} from "./chartLayout";
import type { ChartSpec } from "./chartSpec";

/** Text widths per font, so a redraw measures each label once. */
const widths = new Map<string, Map<string, number>>();

function measurer(ctx: CanvasRenderingContext2D, font: string): MeasureText {
  let cache = widths.get(font);
  if (!cache) {
    cache = new Map();
    widths.set(font, cache);
  }
  const known = cache;
  return (text) => {
    let w = known.get(text);
    if (w === undefined) {
      if (known.size > 5_000) known.clear();
      w = ctx.measureText(text).width;
      known.set(text, w);
    }
    return w;
  };
}

/**
 * Bumped when the page's colours may have changed (theme attribute, print), so each chart
 * re-reads its colours at its next draw; charts subscribe to redraw at once.
 */
let colorsVersion = 0;
const colorListeners = new Set<() => void>();
let watching = false;

function watchColors(listener: () => void): () => void {
  colorListeners.add(listener);
  if (!watching && typeof MutationObserver !== "undefined") {
    watching = true;
    const changed = () => {
      colorsVersion++;
      colorListeners.forEach((l) => l());
    };
    new MutationObserver(changed).observe(document.documentElement, {
      attributes: true,
      attributeFilter: ["data-theme"],
    });
    // The print stylesheet sets its own colours; they apply once the print media matches.
    window.matchMedia?.("print").addEventListener("change", changed);
  }
  return () => colorListeners.delete(listener);
}

interface Drawn {
  layout: ChartLayout;
  spec: ChartSpec;
}

export interface ChartSize {
  w: number;
  h: number;
}

/**
 * The size a widget's chart last had, kept by the widget across results that show no chart (a
 * Burndown with no dated sprint under one filter and a chart under the next).
 */
export type ChartSizeMemo = RefObject<ChartSize | null>;

export function ChartCanvas({
  spec,
  onDrawn,
  sizeMemo,
}: {
  spec: ChartSpec;
  onDrawn: () => void;
  sizeMemo?: ChartSizeMemo;
}) {
  const wrapRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // A chart shown again in its widget starts at the size it had there, so it is drawn as it
  // mounts rather than a frame later; the first observed size corrects it before paint.
  const sizeRef = useRef<ChartSize | null>(sizeMemo?.current ?? null);
  const colorsRef = useRef<{ colors: ChartColors; version: number } | null>(null);
  const drawnRef = useRef<Drawn | null>(null);
  const specRef = useRef(spec);
  const onDrawnRef = useRef(onDrawn);
  const [tip, setTip] = useState<{ hit: Hit; title: string; text: string; transform: string; spec: ChartSpec } | null>(
    null,
  );
  const focusIndex = useRef(0);

  const draw = useCallback(() => {
    const canvas = canvasRef.current;
    const size = sizeRef.current;
    if (!canvas || !size) return;
    if (!colorsRef.current || colorsRef.current.version !== colorsVersion) {
      colorsRef.current = { colors: readColors(canvas), version: colorsVersion };
    }
    const { colors } = colorsRef.current;
    const ratio = window.devicePixelRatio || 1;
    const ctx = prepareCanvas(canvas, size.w, size.h, ratio);
    if (ctx) {
      ctx.font = colors.font;
      const current = specRef.current;
      const layout = chartLayout(current, size.w, size.h, measurer(ctx, colors.font));
      drawChart(ctx, layout, colors, ratio);
      drawnRef.current = { layout, spec: current };
    }
    onDrawnRef.current();
  }, []);

  // A new spec is drawn at once, at the size last observed; the first waits for that size.
  useEffect(() => {
    specRef.current = spec;
    onDrawnRef.current = onDrawn;
    if (sizeRef.current) draw();
  }, [spec, onDrawn, draw]);

  useEffect(() => {
    const wrap = wrapRef.current;
    if (!wrap) return;
    let frame = 0;
    let observed = false;
    const measure = (w: number, h: number) => {
      const first = !observed;
      observed = true;
      const last = sizeRef.current;
      if (last && last.w === w && last.h === h) return;
      sizeRef.current = { w, h };
      if (sizeMemo) sizeMemo.current = sizeRef.current;
      if (first) {
        draw();
      } else if (!frame) {
        // Resizing delivers sizes faster than frames while a widget is dragged larger.
        frame = requestAnimationFrame(() => {
          frame = 0;
          draw();
        });
      }
    };
    const observer = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.contentRect;
      if (box) measure(box.width, box.height);
    });
    observer.observe(wrap);
    // A wrapper of no size may never be reported; it is still drawn (empty) and marked drawn.
    // The look waits a second frame: the observer reports after the first frame's layout, while
    // animation frames run before it, and reading the size there would force that layout early
    // and draw at a rounded size the observer's exact one then replaces.
    let fallback = requestAnimationFrame(() => {
      fallback = requestAnimationFrame(() => {
        if (!observed) measure(wrap.clientWidth, wrap.clientHeight);
      });
    });
    const unwatch = watchColors(() => {
      setTip(null);
      draw();
    });
    return () => {
      observer.disconnect();
      cancelAnimationFrame(fallback);
      if (frame) cancelAnimationFrame(frame);
      unwatch();
    };
  }, [draw, sizeMemo]);

  const show = (hit: Hit | null) => {
    const drawn = drawnRef.current;
    if (!hit || !drawn) return setTip(null);
    // The tooltip opens towards the middle and goes below figures near the top, so it stays
    // inside the widget, which clips what overflows it.
    const x = hit.x > drawn.layout.width / 2 ? "calc(-100% + 12px)" : "-12px";
    const y = hit.y < 32 ? "12px" : "calc(-100% - 8px)";
    // The pointer moving within one figure keeps the same state, so nothing renders again.
    setTip((shown) =>
      shown && shown.spec === drawn.spec && shown.hit.dataset === hit.dataset && shown.hit.index === hit.index
        ? shown
        : {
            hit,
            title: tooltipTitle(drawn.spec, hit),
            text: tooltipText(drawn.spec, hit),
            transform: `translate(${x}, ${y})`,
            spec: drawn.spec,
          },
    );
  };

  const onPointerMove = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const drawn = drawnRef.current;
    if (!drawn) return;
    const box = event.currentTarget.getBoundingClientRect();
    show(hitTest(drawn.layout, event.clientX - box.left, event.clientY - box.top));
  };

  const step = (by: number) => {
    const drawn = drawnRef.current;
    if (!drawn) return;
    const order = figureOrder(drawn.layout);
    if (order.length === 0) return show(null);
    focusIndex.current = (((focusIndex.current + by) % order.length) + order.length) % order.length;
    show(order[focusIndex.current] ?? null);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLCanvasElement>) => {
    if (event.key === "ArrowRight" || event.key === "ArrowDown") step(1);
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") step(-1);
    else if (event.key === "Escape") show(null);
    else return;
    event.preventDefault();
  };

  return (
    <div className="dash-chart" ref={wrapRef}>
      <canvas
        ref={canvasRef}
        tabIndex={0}
        onPointerMove={onPointerMove}
        onPointerLeave={() => show(null)}
        onFocus={() => {
          focusIndex.current = 0;
          step(0);
        }}
        onBlur={() => show(null)}
        onKeyDown={onKeyDown}
      >
        <ChartFigures spec={spec} />
      </canvas>
      {/* A tooltip of the figures drawn before a new spec names what is no longer there. */}
      {tip && tip.spec === spec && (
        <div
          className="dash-chart-tip"
          aria-hidden="true"
          style={{ left: tip.hit.x, top: tip.hit.y, transform: tip.transform }}
        >
          {tip.title && <div className="dash-chart-tip-title">{tip.title}</div>}
          {tip.text}
        </div>
      )}
    </div>
  );
}

/**
 * The chart's figures as a table inside the canvas: what screen readers read instead of the
 * drawing, and the figures a test can compare without reading pixels.
 */
function ChartFigures({ spec }: { spec: ChartSpec }) {
  return (
    <table aria-label={spec.ariaLabel} data-chart-figures>
      <thead>
        <tr>
          <th scope="col" />
          {spec.datasets.map((d, j) => (
            <th key={j} scope="col">
              {d.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {spec.labels.map((label, i) => (
          <tr key={i}>
            <th scope="row">{label}</th>
            {spec.datasets.map((d, j) => (
              <td key={j}>{d.tooltips[i] ?? ""}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
