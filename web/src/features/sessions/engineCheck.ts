/**
 * What the New session dialog says about the chosen engine, from `GET /doctor`: a blocking notice
 * when a session on it cannot start (its program is missing, or the sandbox cannot run and the
 * engine may not run unconfined), a non-blocking one when it can but deserves a look (a version
 * the conformance suite does not cover, a version that could not be read, running unconfined).
 * And which engine it chooses first: a real one that can run, else the built-in demo engine
 * (`serve --demo`), with word of how to configure a real one when that is all there is.
 */
import type { DoctorReport, Engine, EngineInfo, Sandbox } from "../../shared/api/types.generated";

export interface EngineCheck {
  /** A session on this engine cannot start: the dialog's Start button stays off. */
  blocking: boolean;
  title: string;
  /** Why, in the server's words. */
  reasons: string[];
  /** The facts behind them: the program, the version, the sandbox. */
  facts: string[];
}

/** The notice for the engine named `name`; null when there is nothing to say (or no report yet). */
export function engineCheck(report: DoctorReport | undefined, name: string): EngineCheck | null {
  const engine = report?.engines.find((e) => e.name === name);
  if (!report || !engine) return null;
  const blocking = engine.blockers.length > 0;
  if (!blocking && engine.warnings.length === 0) return null;
  return {
    blocking,
    title: title(engine, blocking),
    reasons: blocking ? engine.blockers : engine.warnings,
    facts: facts(engine, report.sandbox),
  };
}

function title(engine: Engine, blocking: boolean): string {
  if (blocking) {
    return engine.path === null || !engine.executable
      ? `Engine "${engine.name}" is missing: its program cannot be run`
      : `Engine "${engine.name}" cannot start a session here`;
  }
  if (engine.coverage === "not_covered") {
    return `Engine "${engine.name}" is at ${engine.version ?? "a version"}, which the test suite does not cover`;
  }
  return `Engine "${engine.name}" may need a look`;
}

function facts(engine: Engine, sandbox: Sandbox): string[] {
  const program = engine.command[0] ?? "";
  const lines = [
    engine.path === null
      ? `Program: ${program} (not found)`
      : `Program: ${engine.path}${engine.executable ? "" : " (not executable)"}`,
  ];
  if (engine.coverage !== "not_applicable") {
    const covered = engine.coveredVersion ? `; the suite covers ${engine.coveredVersion}` : "";
    lines.push(`Version: ${engine.version ?? "unknown"}${covered}`);
  }
  lines.push(`Sandbox: ${sandboxWords(sandbox)}`);
  return lines;
}

export function sandboxWords(sandbox: Sandbox): string {
  if (sandbox.error !== null) return `cannot run (${sandbox.error})`;
  const abi = `Landlock ABI ${sandbox.landlockAbi}`;
  switch (sandbox.mode) {
    case "namespaces":
      return `namespaces, ${abi}`;
    case "landlock":
      return `Landlock file rules only (${abi}; user namespaces: ${sandbox.userNamespacesError ?? "no"})`;
    default:
      return "unavailable";
  }
}

/** Whether `engine` is the server's built-in demo engine: the one engine the server labels. */
export function isDemoEngine(engine: Pick<EngineInfo, "label">): boolean {
  return typeof engine.label === "string";
}

export interface EngineSetup {
  /** The engine chosen until the person picks one. */
  initial: string;
  /**
   * No real engine can run a session (none is configured, or the doctor found each one blocked)
   * and the demo engine is there: the dialog offers it and says how to configure a real one.
   */
  demoOnly: boolean;
  /** Where `engines.toml` goes, once the doctor has said. */
  enginesFile: string | null;
}

/**
 * The dialog's engine setup from `GET /engines` and, once it arrives, `GET /doctor`: `primary`
 * first, then any other real engine the doctor does not block, then the demo engine, then
 * whatever is listed.
 */
export function engineSetup(engines: readonly EngineInfo[], report: DoctorReport | undefined): EngineSetup {
  const demo = engines.find(isDemoEngine);
  const blocked = (name: string) => engineCheck(report, name)?.blocking ?? false;
  const real = engines.filter((e) => !isDemoEngine(e) && !blocked(e.name));
  const initial = real.find((e) => e.name === "primary") ?? real[0] ?? demo ?? engines[0];
  return {
    initial: initial?.name ?? "",
    demoOnly: demo !== undefined && real.length === 0,
    enginesFile: report?.enginesFile.path ?? null,
  };
}
