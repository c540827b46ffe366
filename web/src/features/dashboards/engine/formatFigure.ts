/**
 * The number formatter every widget uses: compact figures with a fixed locale (en-US), at most
 * one decimal and no trailing zero, the unit by its side. The unit is placed by hand because
 * Intl's currency style forces fraction digits (`$1.0K`).
 */
import type { Unit } from "./types";

/** What an empty set shows: never 0. */
export const EMPTY_FIGURE = "–";

const compact = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 1 });
const full = new Intl.NumberFormat("en-US", { maximumFractionDigits: 10 });

/** Removes floating-point noise (0.1 + 0.2 → 0.3) and negative zero. */
export function cleanNumber(n: number): number {
  if (!Number.isFinite(n)) return n;
  const cleaned = Number(n.toPrecision(12));
  return cleaned === 0 ? 0 : cleaned;
}

function withUnit(text: string, unit: Unit | undefined): string {
  const negative = text.startsWith("-");
  const body = negative ? text.slice(1) : text;
  if (!unit || unit.unit === "") return body === "0" ? "0" : text;
  const sign = negative && body !== "0" ? "-" : "";
  return unit.position === "right" ? `${sign}${body}${unit.unit}` : `${sign}${unit.unit}${body}`;
}

/** `1234` → `1.2K`, `$` left → `$1.2K`, `kg` right → `5kg`, null → `–`. */
export function formatCompact(value: number | null, unit?: Unit): string {
  if (value === null || !Number.isFinite(value)) return EMPTY_FIGURE;
  return withUnit(compact.format(cleanNumber(value)), unit);
}

/** The full value for a tooltip: `$1,234.5`. */
export function formatFull(value: number | null, unit?: Unit): string {
  if (value === null || !Number.isFinite(value)) return EMPTY_FIGURE;
  return withUnit(full.format(cleanNumber(value)), unit);
}
