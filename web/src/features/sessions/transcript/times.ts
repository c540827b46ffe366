/**
 * When a transcript row happened and how long a tool ran, in words: the clock time of its first
 * entry ("14:05:09"), and a duration from a call's time to its result's ("0.4 s", "12 s",
 * "3 min 05 s", "1 h 02 min"). Entries stored before entries had times carry none.
 */
import type { Entry } from "../../../shared/api/types.generated";

const CLOCK = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

function millis(iso: string | null | undefined): number | null {
  if (!iso) return null;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? null : t;
}

export function clockTime(entry: Pick<Entry, "at">): string | null {
  const t = millis(entry.at);
  return t === null ? null : CLOCK.format(t);
}

export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(Math.max(0, ms) / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const pad = (n: number) => String(n).padStart(2, "0");
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${pad(seconds % 60)} s`;
  return `${Math.floor(seconds / 3600)} h ${pad(Math.floor((seconds % 3600) / 60))} min`;
}

/** How long from `start` to `end` (a call and its result), or null without both times. */
export function durationBetween(start: Pick<Entry, "at">, end: Pick<Entry, "at"> | null): string | null {
  const [from, to] = [millis(start.at), millis(end?.at)];
  return from === null || to === null ? null : formatDuration(to - from);
}
