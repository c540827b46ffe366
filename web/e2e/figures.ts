/** How the scale measurements (`*-scale.e2e.ts`) summarize their timings when they print them. */

/** The nearest-rank `p`th percentile of `values` (NaN when there are none). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** `p50 …, p95 … (n=…)` in milliseconds. */
export const figure = (values: number[]) =>
  `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms (n=${values.length})`;

/** Which server the figures are of: the debug binary unless SWITCHBOARD_BIN names another. */
export const SERVER = process.env.SWITCHBOARD_BIN ? `server ${process.env.SWITCHBOARD_BIN}` : "debug server";
