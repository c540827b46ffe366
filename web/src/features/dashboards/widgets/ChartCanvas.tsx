/**
 * The one place Chart.js is used: a canvas that draws a `ChartSpec`, updated in place (no
 * animation) when the spec changes so a filter change redraws every chart quickly. This module
 * is loaded lazily, keeping Chart.js out of the app's first load; only the parts used are
 * registered.
 */
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  DoughnutController,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PieController,
  PointElement,
  Tooltip,
} from "chart.js";
import { useEffect, useRef } from "react";
import type { ChartSpec } from "./chartSpec";

Chart.register(
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  DoughnutController,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PieController,
  PointElement,
  Tooltip,
);

function datasets(spec: ChartSpec) {
  const round = spec.kind === "pie" || spec.kind === "doughnut";
  return spec.datasets.map((d) => ({
    label: d.label,
    data: d.data,
    type: d.type,
    backgroundColor: d.colors ?? d.color,
    borderColor: d.type === "line" || spec.kind === "line" ? d.color : round ? "#fff" : d.color,
    borderDash: d.dashed ? [6, 4] : undefined,
    borderWidth: d.type === "line" || spec.kind === "line" ? 2 : 1,
    pointRadius: d.type === "line" || spec.kind === "line" ? 2 : undefined,
    stack: d.stack,
    order: d.type === "line" ? 0 : 1,
  }));
}

/** What the options depend on: while it stays the same, a new spec only replaces the data. */
function optionsKey(spec: ChartSpec): string {
  return [spec.kind, spec.horizontal, spec.stacked, spec.legend].join("|");
}

/** Options read the current spec through `current`, so they outlive the spec they were made for. */
function configuration(spec: ChartSpec, current: { spec: ChartSpec }): ChartConfiguration {
  const round = spec.kind === "pie" || spec.kind === "doughnut";
  const tooltipLabel = (context: { datasetIndex: number; dataIndex: number; dataset: { label?: string } }) => {
    const now = current.spec;
    const text = now.datasets[context.datasetIndex]?.tooltips?.[context.dataIndex] ?? "";
    const name = round ? (now.labels[context.dataIndex] ?? "") : (context.dataset.label ?? "");
    return name ? `${name}: ${text}` : text;
  };
  return {
    type: spec.kind,
    data: { labels: spec.labels, datasets: datasets(spec) },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      indexAxis: spec.horizontal ? "y" : "x",
      plugins: {
        legend: { display: spec.legend, position: round ? "right" : "bottom", labels: { boxWidth: 12 } },
        tooltip: { callbacks: { label: tooltipLabel } },
      },
      scales: round
        ? {}
        : {
            x: { stacked: spec.stacked, ticks: { autoSkip: true, maxRotation: 45 } },
            y: { stacked: spec.stacked, beginAtZero: true },
          },
    },
  } as ChartConfiguration;
}

export function ChartCanvas({ spec, onDrawn }: { spec: ChartSpec; onDrawn: () => void }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const chartRef = useRef<{ chart: Chart; key: string; current: { spec: ChartSpec } } | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const key = optionsKey(spec);
    const drawn = chartRef.current;
    if (drawn && drawn.key === key) {
      // Same kind of chart: new labels and values only, so Chart.js keeps its resolved options
      // and each dataset's state, and redraws without animation.
      drawn.current.spec = spec;
      const next = datasets(spec);
      const data = drawn.chart.data;
      data.labels = spec.labels;
      if (data.datasets.length === next.length) next.forEach((d, i) => Object.assign(data.datasets[i] as object, d));
      else data.datasets = next as typeof data.datasets;
      drawn.chart.update("none");
    } else {
      drawn?.chart.destroy();
      const current = { spec };
      chartRef.current = { chart: new Chart(canvas, configuration(spec, current)), key, current };
    }
    onDrawn();
  }, [spec, onDrawn]);

  useEffect(
    () => () => {
      chartRef.current?.chart.destroy();
      chartRef.current = null;
    },
    [],
  );

  return (
    <div className="dash-chart">
      <canvas ref={canvasRef}>
        <ChartFigures spec={spec} />
      </canvas>
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
