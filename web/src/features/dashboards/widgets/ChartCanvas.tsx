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

function configuration(spec: ChartSpec): ChartConfiguration {
  const round = spec.kind === "pie" || spec.kind === "doughnut";
  const tooltipLabel = (context: { datasetIndex: number; dataIndex: number; dataset: { label?: string } }) => {
    const dataset = spec.datasets[context.datasetIndex];
    const text = dataset?.tooltips?.[context.dataIndex] ?? "";
    const name = round ? (spec.labels[context.dataIndex] ?? "") : (context.dataset.label ?? "");
    return name ? `${name}: ${text}` : text;
  };
  return {
    type: spec.kind,
    data: {
      labels: spec.labels,
      datasets: spec.datasets.map((d) => ({
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
      })),
    },
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
  const chartRef = useRef<Chart | null>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const config = configuration(spec);
    const chart = chartRef.current;
    if (chart && (chart.config as { type?: string }).type === spec.kind) {
      chart.data = config.data;
      chart.options = config.options ?? {};
      chart.update("none");
    } else {
      chart?.destroy();
      chartRef.current = new Chart(canvas, config);
    }
    onDrawn();
  }, [spec, onDrawn]);

  useEffect(
    () => () => {
      chartRef.current?.destroy();
      chartRef.current = null;
    },
    [],
  );

  return (
    <div className="dash-chart">
      <canvas ref={canvasRef} role="img" aria-label={spec.ariaLabel} />
    </div>
  );
}
