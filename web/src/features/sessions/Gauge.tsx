/** One ceiling gauge: what is spent, a bar toward the ceiling, and a warning once past it. */
import type { Gauge as GaugeValue } from "./ceilings";

export function Gauge({ name, gauge }: { name: string; gauge: GaugeValue }) {
  const title = gauge.ceilingLabel
    ? `${name}: ${gauge.label} of ${gauge.ceilingLabel}${gauge.over ? " (past the ceiling; not enforced)" : ""}`
    : `${name}: ${gauge.label} (no ceiling set)`;
  return (
    <span className={`gauge${gauge.over ? " gauge-over" : ""}`} title={title} data-gauge={name}>
      <span className="gauge-label">
        {gauge.label}
        {gauge.ceilingLabel && <span className="muted"> / {gauge.ceilingLabel}</span>}
      </span>
      {gauge.fraction !== null && (
        <span
          className="gauge-bar"
          role="meter"
          aria-label={name}
          aria-valuemin={0}
          aria-valuemax={1}
          aria-valuenow={gauge.fraction}
        >
          <span className="gauge-fill" style={{ width: `${Math.round(gauge.fraction * 100)}%` }} />
        </span>
      )}
      {gauge.over && <span className="gauge-warning"> past ceiling</span>}
    </span>
  );
}
