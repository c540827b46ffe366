/**
 * What a session used, as shown: its tree's CPU time over its life, its highest memory, the
 * processes in it now, and the bytes it read and wrote, from the session's cgroup
 * (docs/resources.md). `null` for a session on a runner or on a machine without cgroups: there
 * is nothing to show, and no zero is made up.
 */
import type { Session, SessionResources } from "../../shared/api/types.generated";

/** CPU time in words: "0.4 s", "12.4 s", "3 min 2 s", "3 min", "1 h 5 min", "26 h". */
export function cpuTime(seconds: number): string {
  const tenths = Math.round(Math.max(0, seconds) * 10) / 10;
  if (tenths < 60) return `${tenths.toFixed(1)} s`;
  const whole = Math.round(tenths);
  if (whole < 3600) {
    const [min, s] = [Math.floor(whole / 60), whole % 60];
    return s === 0 ? `${min} min` : `${min} min ${s} s`;
  }
  const minutes = Math.round(whole / 60);
  const [h, min] = [Math.floor(minutes / 60), minutes % 60];
  return min === 0 ? `${h} h` : `${h} h ${min} min`;
}

/**
 * Memory as the server counts it (in units of 2^20 bytes, called MB as a person reads them):
 * "412 MB", "3.4 GB", "62 GB".
 */
export function memory(mb: number): string {
  if (mb < 1024) return `${Math.round(mb)} MB`;
  const gb = Math.round((mb / 1024) * 10) / 10;
  return gb < 10 ? `${gb.toFixed(1)} GB` : `${Math.round(mb / 1024)} GB`;
}

const BYTE_UNITS = ["kB", "MB", "GB", "TB"] as const;

/** Bytes in decimal units: "0 B", "512 B", "340 kB", "1.2 MB", "27 GB" (one decimal below 10). */
export function bytes(n: number): string {
  const value = Math.max(0, n);
  if (value < 1000) return `${Math.round(value)} B`;
  let scaled = value;
  for (const [i, unit] of BYTE_UNITS.entries()) {
    scaled /= 1000;
    const shown = scaled < 10 ? Math.round(scaled * 10) / 10 : Math.round(scaled);
    // 999.96 kB reads as "1.0 MB", not "1000 kB".
    if (shown < 1000 || i === BYTE_UNITS.length - 1)
      return shown < 10 ? `${shown.toFixed(1)} ${unit}` : `${shown} ${unit}`;
  }
  return `${value} B`;
}

/** "1 process", "7 processes". */
export function processCount(n: number): string {
  return `${n.toLocaleString("en")} process${n === 1 ? "" : "es"}`;
}

export interface ResourceUse {
  /** "12.4 s CPU" */
  cpu: string;
  /** "412 MB peak" */
  memory: string;
  /** "7 processes" */
  processes: string;
  /** "1.2 MB read, 340 kB written" */
  disk: string;
}

/** The session page's figures, or `null` when the session reports none. */
export function resourceUse(resources: SessionResources | null): ResourceUse | null {
  if (resources === null) return null;
  return {
    cpu: `${cpuTime(resources.cpuSeconds)} CPU`,
    memory: `${memory(resources.peakMemoryMb)} peak`,
    processes: processCount(resources.processes),
    disk: `${bytes(resources.readBytes)} read, ${bytes(resources.writtenBytes)} written`,
  };
}

/** The board's CPU cell: "12.4 s", "3 min 2 s"; `null` when the session reports no figures. */
export function cpuFigure(session: Pick<Session, "resources">): string | null {
  return session.resources === null ? null : cpuTime(session.resources.cpuSeconds);
}
