/**
 * A session's spend against the ceilings stored when it was spawned (`maxDollarsPerSession`,
 * `maxTurnsPerSession`). The spec keeps them unenforced: the gauge only shows how close a session
 * is, and says so once it is past. A ceiling of 0 means none was set.
 */
import type { Session } from "../../shared/api/types.generated";

export interface Gauge {
  /** What is spent, for the label: `$0.42` or `12`. */
  label: string;
  /** The ceiling, for the label; null when there is none. */
  ceilingLabel: string | null;
  /** 0..1 of the ceiling, capped at 1; null without a ceiling. */
  fraction: number | null;
  over: boolean;
}

export function dollars(value: number): string {
  return `$${value < 10 ? value.toFixed(2) : value.toFixed(1)}`;
}

function gauge(spent: number, ceiling: number, format: (n: number) => string): Gauge {
  if (!(ceiling > 0)) return { label: format(spent), ceilingLabel: null, fraction: null, over: false };
  return {
    label: format(spent),
    ceilingLabel: format(ceiling),
    fraction: Math.min(1, spent / ceiling),
    over: spent > ceiling,
  };
}

/** Null when the engine reports no price (Codex, `command` engines): there is nothing to measure. */
export function costGauge(session: Pick<Session, "costUsd" | "maxDollarsPerSession">): Gauge | null {
  if (session.costUsd === null) return null;
  return gauge(session.costUsd, session.maxDollarsPerSession, dollars);
}

export function turnsGauge(session: Pick<Session, "turns" | "maxTurnsPerSession">): Gauge {
  return gauge(session.turns, session.maxTurnsPerSession, String);
}
