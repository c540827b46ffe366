/**
 * The Runners page's logic, apart from its rendering: the order runners are listed in, the words
 * for their state, and which facts each shows, in what words (memory, load, engines, sandbox).
 */
import type { Memory, Runner, RunnerEngine, RunnerKind, RunnerState } from "../../shared/api/types.generated";
import { relativeTime } from "../../shared/time";

export const STATE_LABEL: Record<RunnerState, string> = {
  connected: "Connected",
  connecting: "Connecting",
  unreachable: "Unreachable",
  invalid: "Invalid",
};

export const KIND_LABEL: Record<RunnerKind, string> = {
  local: "This machine",
  ssh: "SSH",
  pool: "Pool",
};

/** `local` first, then the runners of `runners.toml` by name, those that cannot be used last. */
export function sortRunners(runners: readonly Runner[]): Runner[] {
  const rank = (r: Runner) => (r.kind === "local" ? 0 : r.state === "invalid" ? 2 : 1);
  return runners
    .map((runner, order) => ({ runner, order }))
    .sort((a, b) => rank(a.runner) - rank(b.runner) || a.runner.name.localeCompare(b.runner.name) || a.order - b.order)
    .map(({ runner }) => runner);
}

/** Only this machine: nothing is declared in `runners.toml` (or there is no such file). */
export function onlyLocal(runners: readonly Runner[]): boolean {
  return runners.every((r) => r.kind === "local");
}

/** "2 of 3 connected": said when there is more than this machine. */
export function connectedSummary(runners: readonly Runner[]): string | null {
  if (onlyLocal(runners)) return null;
  const connected = runners.filter((r) => r.state === "connected").length;
  return `${connected} of ${runners.length} connected`;
}

/** Why a runner is not connected, in full (ssh's own message, or the file's line and column). */
export function reasonShown(runner: Runner): string | null {
  return runner.state === "connected" ? null : runner.reason;
}

/** Megabytes in the unit a person reads: "512 MB", "3.4 GB", "62 GB". */
export function megabytes(mb: number): string {
  if (mb < 1024) return `${Math.round(mb)} MB`;
  const gb = Math.round((mb / 1024) * 10) / 10;
  return gb < 10 ? `${gb.toFixed(1)} GB` : `${Math.round(mb / 1024)} GB`;
}

/** "12.3 GB free of 31 GB". */
export function memoryText(memory: Memory): string {
  return `${megabytes(memory.availableMb)} free of ${megabytes(memory.totalMb)}`;
}

/** The one-minute load average, two decimals. */
export function loadText(load: number): string {
  return load.toFixed(2);
}

/** "3 of 8 running" with `max_sessions`, "3 running" without. */
export function sessionsText(runner: Pick<Runner, "sessions" | "maxSessions">): string {
  return runner.maxSessions === null
    ? `${runner.sessions} running`
    : `${runner.sessions} of ${runner.maxSessions} running`;
}

/** "claude 2.1.3", or what a missing version means. */
export function engineText(engine: RunnerEngine): string {
  return engine.version === null
    ? `${engine.name}: not found, or printed no version`
    : `${engine.name} ${engine.version}`;
}

/** How engines are confined there, as `GET /doctor` names the modes. */
export function sandboxText(sandbox: string): string {
  switch (sandbox) {
    case "namespaces":
      return "Namespaces";
    case "landlock":
      return "Landlock";
    case "unavailable":
      return "None: this kernel cannot confine engines";
    case "pod":
      return "Its pod (no kernel sandbox; locked-down sessions refused)";
    default:
      return sandbox;
  }
}

export type FactKey =
  "sessions" | "load" | "memory" | "engines" | "sandbox" | "version" | "labels" | "destination" | "lastSeen";

export interface Fact {
  key: FactKey;
  label: string;
  /** One line each (an engine a line, a label a tag). */
  values: string[];
  /** Not reported (yet): the values say so, drawn muted. */
  unknown: boolean;
}

/**
 * What the page shows of a runner, in order. An invalid declaration has nothing but its reason
 * (and its sessions, should any still run there); a host not reached yet says so in each fact
 * the host itself would report.
 */
export function runnerFacts(runner: Runner, now: number): Fact[] {
  const facts: Fact[] = [];
  const known = (key: FactKey, label: string, values: string[]) => facts.push({ key, label, values, unknown: false });
  const missing = runner.kind !== "local" && runner.lastSeen === null ? "not reached yet" : "not reported";
  const reported = (key: FactKey, label: string, value: string[] | null) =>
    value === null ? facts.push({ key, label, values: [missing], unknown: true }) : known(key, label, value);

  if (runner.state === "invalid") {
    if (runner.sessions > 0) known("sessions", "Sessions", [sessionsText(runner)]);
    return facts;
  }
  known("sessions", "Sessions", [sessionsText(runner)]);
  reported("load", "Load", runner.load === null ? null : [loadText(runner.load)]);
  reported("memory", "Memory", runner.memory === null ? null : [memoryText(runner.memory)]);
  // A host reached with no engine in force reports none; one never reached has not said.
  const reached = runner.kind === "local" || runner.lastSeen !== null;
  const engines = runner.engines.length > 0 ? runner.engines.map(engineText) : reached ? ["none"] : null;
  reported("engines", "Engines", engines);
  reported("sandbox", "Sandbox", runner.sandbox === null ? null : [sandboxText(runner.sandbox)]);
  reported(
    "version",
    runner.kind === "local" ? "Switchboard" : "Helper",
    runner.switchboardVersion === null ? null : [runner.switchboardVersion],
  );
  if (runner.kind === "local") return facts;
  if (runner.labels.length > 0) known("labels", "Labels", runner.labels);
  if (runner.destination !== null)
    known("destination", runner.kind === "pool" ? "Connected from" : "Destination", [runner.destination]);
  facts.push(
    runner.lastSeen === null
      ? { key: "lastSeen", label: "Last reached", values: ["never"], unknown: true }
      : { key: "lastSeen", label: "Last reached", values: [relativeTime(runner.lastSeen, now)], unknown: false },
  );
  return facts;
}

/** What the empty page adds after "while the setting … is on": whether it is, once settings are read. */
export function settingWords(on: boolean | undefined): string {
  if (on === undefined) return "";
  return on ? "; it is on now" : "; it is off now";
}
